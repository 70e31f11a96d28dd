package e2e

// Structured results (RESULT-1): every advertised tool, in every mode and
// on both generations, answers a good call and a bad call with
// structuredContent that validates against its own outputSchema and a
// text block that matches it. The checks themselves live in
// results_test.go (server.check); this test makes sure each tool meets
// them at least once both ways.

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// samples are each tool's Spec.Sample, read from the tools handlers
// declares, so a new tool brings its own (handlers' TestEveryToolHasASample
// requires one). Good's group is the fake's.
func samples(t *testing.T) map[string]pipeline.Sample {
	t.Helper()
	cat, err := catalog.Load()
	require.NoError(t, err)
	out := map[string]pipeline.Sample{}
	for _, tl := range handlers.All(&handlers.Deps{Catalog: cat, Config: &config.Config{Mode: config.ModeWrite}}) {
		out[tl.Name] = tl.Sample
	}
	return out
}

// arguments parses a sample's JSON object.
func arguments(t *testing.T, raw string) map[string]any {
	t.Helper()
	var args map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &args))
	return args
}

func TestEveryToolReturnsValidStructuredContent(t *testing.T) {
	t.Parallel()
	require.Equal(t, 123456789, fake.GroupID, "Spec.Sample's group is the fake's")
	toolCalls := samples(t)
	modes := []struct {
		name string
		env  func() map[string]string
	}{
		{"docs", docsEnv}, {"read", readEnv}, {"write", writeEnv},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, mode.env())
				for _, name := range s.toolNames() {
					calls := toolCalls[name]
					if !assert.NotEmpty(t, calls.Good, "tool %s has no Spec.Sample", name) {
						continue
					}
					good := s.call(t, name, arguments(t, calls.Good), nil)
					assert.False(t, good.IsError, "%s: %s", name, good.Text)
					assert.Equal(t, "success", good.Diag.Outcome, name)
					bad := s.call(t, name, arguments(t, calls.Bad), nil)
					assert.True(t, bad.IsError, "%s accepted bad arguments", name)
				}
			})
		})
	}
}
