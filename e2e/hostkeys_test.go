package e2e

// A host's own control keys (issue 50): Gemini CLI adds wait_for_previous
// to every MCP tool's parameters and forwards it when its model sets it,
// as Gemini's system prompt tells the model to. The server drops exactly
// that key before validating, so the call goes through and the key never
// reaches SnowLuma; every other unknown argument is still refused.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestAHostsControlKeyNeverBreaksACall(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		for _, tt := range []struct {
			name, tool string
			wait       any
		}{
			{"a read Gemini CLI was told to wait for", "query_action", true},
			{"a write with the key turned off", "invoke_action", false},
		} {
			t.Run(tt.name, func(t *testing.T) {
				tag := newTag(t)
				action := "get_status"
				params := map[string]any{fake.Marker: "tag:" + tag}
				if tt.tool == "invoke_action" {
					action = "set_group_sign"
					params["group_id"] = fake.GroupID
				}
				r := s.call(t, tt.tool, map[string]any{"action": action, "params": params, "wait_for_previous": tt.wait}, nil)
				require.False(t, r.IsError, r.Text)
				assert.Equal(t, "success", r.Diag.Outcome, r.Text)
				got := snow.ByTag(tag)
				require.Len(t, got, 1, "the call reached SnowLuma once")
				assert.NotContains(t, string(got[0].Body), "wait_for_previous", "the host's key never reaches SnowLuma")
			})
		}
		t.Run("a catalog tool", func(t *testing.T) {
			r := s.call(t, "get_action", map[string]any{"name": "get_status", "wait_for_previous": true}, nil)
			require.False(t, r.IsError, r.Text)
		})
		t.Run("every other unknown argument is still refused", func(t *testing.T) {
			tag := newTag(t)
			r := s.call(t, "query_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "tag:" + tag}, "wait_for_previous": true, "wait_for_prev": true}, nil)
			require.True(t, r.IsError, r.Text)
			assert.Equal(t, "invalid_argument", r.Diag.Kind)
			assert.Contains(t, r.Text, `"wait_for_prev"`)
			assert.Empty(t, snow.ByTag(tag))
		})
		t.Run("inside an action's params it is SnowLuma's unknown key", func(t *testing.T) {
			tag := newTag(t)
			r := s.call(t, "query_action", map[string]any{"action": "get_status", "params": map[string]any{fake.Marker: "tag:" + tag, "wait_for_previous": true}}, nil)
			require.True(t, r.IsError, r.Text)
			assert.Contains(t, r.Text, `"wait_for_previous"`)
			assert.Empty(t, snow.ByTag(tag))
		})
	})
}
