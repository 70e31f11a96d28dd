package e2e

// Structured results (RESULT-1): every advertised tool, in every mode and
// on both generations, answers a good call and a bad call with
// structuredContent that validates against its own outputSchema and a
// text block that matches it. The checks themselves live in
// results_test.go (server.check); this test makes sure each tool meets
// them at least once both ways.

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// toolCalls are one good and one bad argument set per tool.
var toolCalls = map[string]struct{ good, bad map[string]any }{
	"list_actions":     {map[string]any{"limit": 2}, map[string]any{"limit": 0}},
	"get_action":       {map[string]any{"name": "get_msg"}, map[string]any{"name": "no_such"}},
	"search_actions":   {map[string]any{"query": "msg"}, map[string]any{"query": 5}},
	"list_categories":  {map[string]any{}, map[string]any{"extra": true}},
	"get_runtime_info": {map[string]any{}, map[string]any{"check_connection": "yes"}},
	"preview_message": {map[string]any{"message_type": "group", "target_id": fake.GroupID, "text": "hi"},
		map[string]any{"message_type": "group", "target_id": 0, "text": "hi"}},
	"query_action": {map[string]any{"action": "get_login_info"}, map[string]any{"action": "send_msg"}},
	"invoke_action": {map[string]any{"action": "set_group_sign", "params": map[string]any{"group_id": fake.GroupID}},
		map[string]any{"action": "set_group_sign", "params": map[string]any{"group_id": -1}}},
	// Complete arguments never prompt, so these need no elicitation.
	"query_action_with_input": {map[string]any{"action": "get_login_info"}, map[string]any{"action": "send_msg"}},
	"invoke_action_with_input": {map[string]any{"action": "set_group_sign", "params": map[string]any{"group_id": fake.GroupID}},
		map[string]any{"action": "set_group_sign", "params": map[string]any{"group_id": -1}}},
}

func TestEveryToolReturnsValidStructuredContent(t *testing.T) {
	t.Parallel()
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
					calls, ok := toolCalls[name]
					if !assert.True(t, ok, "tool %s has no structured-content test", name) {
						continue
					}
					good := s.call(t, name, calls.good, nil)
					assert.False(t, good.IsError, "%s: %s", name, good.Text)
					assert.Equal(t, "success", good.Diag.Outcome, name)
					bad := s.call(t, name, calls.bad, nil)
					assert.True(t, bad.IsError, "%s accepted bad arguments", name)
				}
			})
		})
	}
}
