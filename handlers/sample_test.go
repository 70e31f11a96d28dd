package handlers

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// TestEveryToolHasASample: e2e/structured_test.go runs each listed tool's
// Spec.Sample through the binary (RESULT-1), so a tool without one fails
// here, in the tool recipe's own test command, rather than only there.
// The tools of the tasks extension and of events are listed only with a
// task directory or an events URL, and that test starts neither.
func TestEveryToolHasASample(t *testing.T) {
	t.Parallel()
	for _, tl := range All(deps(t, config.ModeWrite)) {
		if tl.Tasks {
			continue
		}
		for which, args := range map[string]string{"Good": tl.Sample.Good, "Bad": tl.Sample.Bad} {
			var obj map[string]any
			assert.NoError(t, json.Unmarshal([]byte(args), &obj),
				"tool %s: Spec.Sample.%s must be its arguments as a JSON object (e2e/structured_test.go calls it)", tl.Name, which)
		}
	}
}
