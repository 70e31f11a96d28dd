package e2e

import (
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnInventedActionNameIsOfferedWhatItMeans: a name made of a
// request's words, a real name off only in case or blanks, or one slip
// from a real name (a missing underscore, a plural) is refused by every
// tool that takes an action name with the real action it means offered in
// the message, the next step and the text a host shows (the slip's exact
// action first), and nothing reaches SnowLuma.
func TestAnInventedActionNameIsOfferedWhatItMeans(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, invented, meant string
		first                       bool // the meant action is offered first
	}{
		{"an invented name, in invoke_action", "invoke_action", "withdraw_msg", "delete_msg", false},
		{"an invented name, in query_action", "query_action", "get_friends", "get_friend_list", false},
		{"an invented name, in invoke_action_with_input", "invoke_action_with_input", "send_private_text", "send_private_msg", false},
		{"a case slip, in invoke_action", "invoke_action", "SEND_GROUP_MSG", "send_group_msg", true},
		{"a blank slip, in query_action", "query_action", "get_group_list ", "get_group_list", true},
		{"a missing underscore, in invoke_action", "invoke_action", "send_group_notice", "_send_group_notice", true},
		{"a plural, in query_action", "query_action", "get_group_lists", "get_group_list", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, writeEnv())
				c := s.run(t, tt.tool, tt.invented, map[string]any{}, "")
				assert.True(t, c.res.IsError)
				assert.Equal(t, "unknown_action", c.res.Diag.Kind)
				assert.Equal(t, "failed", c.res.Diag.Outcome)
				assert.Contains(t, c.res.Diag.Message, tt.meant)
				assert.Contains(t, c.res.Text, tt.meant, "the text a host shows names it")
				if tt.first {
					assert.Contains(t, c.res.Diag.Message, "did you mean "+tt.meant)
					assert.Contains(t, c.res.Diag.NextStep, "If "+tt.meant+" does what you meant")
				}
				assert.Contains(t, c.res.Diag.NextStep, "search_actions or list_actions")
				c.assertNothingSent(t)
			})
		})
	}
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		r := s.call(t, "get_action", map[string]any{"name": "Send_Group_Msg"}, nil)
		assert.True(t, r.IsError)
		assert.Equal(t, "unknown_action", r.Diag.Kind)
		assert.Contains(t, r.Diag.Message, "did you mean send_group_msg")

		r = s.call(t, "get_action", map[string]any{"name": "send_group_notice"}, nil)
		assert.True(t, r.IsError)
		assert.Contains(t, r.Diag.Message, "did you mean _send_group_notice")
		assert.Contains(t, r.Diag.NextStep, "get_action _send_group_notice")

		uri := catalogURI + "/withdraw_msg"
		_, err := s.session.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: uri})
		require.Error(t, err)
		var we *jsonrpc.Error
		require.True(t, errors.As(err, &we), "a JSON-RPC error, got %v", err)
		assert.Equal(t, notFoundCode(version), we.Code, "the resource keeps its not-found error")
		assert.Contains(t, we.Message, "delete_msg", "and offers the action meant in its message")
	})
}
