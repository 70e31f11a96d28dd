package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAnUnknownActionNameGetsADidYouMean: every tool that takes an action
// name answers a name one slip from a catalog name with that name, in the
// message and the next step a host shows, and sends nothing.
func TestAnUnknownActionNameGetsADidYouMean(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tool  string
		slip  string
		meant string
	}{
		{"a missing underscore, in invoke_action", "invoke_action", "send_group_notice", "_send_group_notice"},
		{"a plural, in query_action", "query_action", "get_group_lists", "get_group_list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, writeEnv())
				c := s.run(t, tt.tool, tt.slip, map[string]any{}, "")
				assert.True(t, c.res.IsError)
				assert.Equal(t, "unknown_action", c.res.Diag.Kind)
				assert.Equal(t, "failed", c.res.Diag.Outcome)
				assert.Contains(t, c.res.Diag.Message, "did you mean "+tt.meant)
				assert.Contains(t, c.res.Diag.NextStep, "If "+tt.meant+" does what you meant")
				assert.Contains(t, c.res.Text, tt.meant, "the text a host shows names it")
				c.assertNothingSent(t)
			})
		})
	}
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		r := s.call(t, "get_action", map[string]any{"name": "send_group_notice"}, nil)
		assert.True(t, r.IsError)
		assert.Equal(t, "unknown_action", r.Diag.Kind)
		assert.Contains(t, r.Diag.Message, "did you mean _send_group_notice")
		assert.Contains(t, r.Diag.NextStep, "get_action _send_group_notice")
	})
}
