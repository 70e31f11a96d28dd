package e2e

// A model's slips never reach SnowLuma (issue 41, AGX-5): a parameter name
// SnowLuma neither declares nor reads (misspelt, invented, or borrowed
// from another OneBot implementation) and a quoted id preview_message
// cannot read are refused before the fake SnowLuma sees anything, with the
// name the model meant in the text a host shows. The keys SnowLuma reads
// beside its declaration go through.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// slip is one call a model gets wrong.
type slip struct {
	name   string
	tool   string
	action string         // "" for preview_message
	params map[string]any // the action's params, or preview_message's arguments
	want   []string       // in the text a host shows
}

func slips() []slip {
	g, u := fake.GroupID, fake.AliceID
	return []slip{
		{"nickname for a member's card", "invoke_action", "set_group_card", map[string]any{"group_id": g, "user_id": u, "nickname": "x"},
			[]string{`"nickname" (did you mean card?)`, "reads only group_id, user_id, card"}},
		{"time for a mute's duration", "invoke_action", "set_group_ban", map[string]any{"group_id": g, "user_id": u, "time": 600},
			[]string{`"time" (did you mean duration?)`}},
		{"seconds for a mute's duration", "invoke_action", "set_group_ban", map[string]any{"group_id": g, "user_id": u, "seconds": 600},
			[]string{`"seconds" (did you mean duration?)`}},
		{"count for the number of likes", "invoke_action", "send_like", map[string]any{"user_id": u, "count": 10},
			[]string{`"count" (did you mean times?)`}},
		{"text for a message", "invoke_action", "send_group_msg", map[string]any{"group_id": g, "text": "hi"},
			[]string{`"text" (did you mean message?)`}},
		{"messages for a group message", "invoke_action", "send_group_msg", map[string]any{"group_id": g, "messages": "hi"},
			[]string{`"messages" (did you mean message?)`}},
		{"qq for a user id", "invoke_action", "send_private_msg", map[string]any{"qq": u, "message": "hi"},
			[]string{`"qq" (did you mean user_id?)`}},
		{"group for a group id", "invoke_action", "set_group_kick", map[string]any{"group": g, "user_id": u},
			[]string{`"group" (did you mean group_id?)`}},
		{"camel case", "query_action", "get_stranger_info", map[string]any{"userId": u},
			[]string{`"userId" (did you mean user_id?)`}},
		{"go-cqhttp's no_cache where SnowLuma reads none", "query_action", "get_stranger_info", map[string]any{"user_id": u, "no_cache": true},
			[]string{`"no_cache"`, "reads only user_id"}},
		{"go-cqhttp's temporary-session group_id", "invoke_action", "send_private_msg", map[string]any{"user_id": u, "group_id": g, "message": "hi"},
			[]string{`"group_id"`, "reads only user_id, message, auto_escape"}},
		{"go-cqhttp's remark on a friend request", "invoke_action", "set_friend_add_request", map[string]any{"flag": "f", "approve": true, "remark": "x"},
			[]string{`"remark"`, "reads only flag, approve"}},
		{"go-cqhttp's duration of a special title", "invoke_action", "set_group_special_title", map[string]any{"group_id": g, "user_id": u, "special_title": "x", "duration": -1},
			[]string{`"duration"`, "reads only group_id, user_id, special_title"}},
		{"NapCat's message_seq for history", "query_action", "get_group_msg_history", map[string]any{"group_id": g, "message_seq": 5},
			[]string{`"message_seq" (did you mean message_id?)`}},
		{"NapCat's reverseOrder", "query_action", "get_group_msg_history", map[string]any{"group_id": g, "reverseOrder": true},
			[]string{`"reverseOrder"`, "reads only group_id, message_id, count"}},
		{"enabled for enable", "invoke_action", "set_group_whole_ban", map[string]any{"group_id": g, "enabled": true},
			[]string{`"enabled" (did you mean enable?)`}},
		{"name for a group's name", "invoke_action", "set_group_name", map[string]any{"group_id": g, "name": "x"},
			[]string{`"name" (did you mean group_name?)`}},
		{"msg_id for a message id", "query_action", "get_msg", map[string]any{"msg_id": 5},
			[]string{`"msg_id" (did you mean message_id?)`}},
		{"a misspelt param name", "invoke_action", "delete_msg", map[string]any{"mesage_id": 5},
			[]string{`"mesage_id" (did you mean message_id?)`}},
		{"an invented param on an action that takes none", "query_action", "get_status", map[string]any{"verbose": true},
			[]string{`"verbose"`, "it takes no parameters"}},
		{"a slip in the keys given to the asking tool, before it asks", "invoke_action_with_input", "send_group_msg", map[string]any{"group": g},
			[]string{`"group" (did you mean group_id?)`}},
		{"a quoted target id with blanks", "preview_message", "", map[string]any{"message_type": "group", "target_id": " 20001", "text": "x"},
			[]string{`arguments.target_id: want an integer, or a string of its decimal digits`, `" 20001"`}},
		{"a quoted hex target id", "preview_message", "", map[string]any{"message_type": "private", "target_id": "0x4E21", "text": "x"},
			[]string{`the string "0x4E21" is neither`}},
		{"a quoted reply id with an exponent", "preview_message", "", map[string]any{"message_type": "group", "target_id": "20001", "text": "x", "reply_to": "1e3"},
			[]string{`arguments.reply_to`, `the string "1e3" is neither`}},
	}
}

func TestSlipsNeverReachSnowLuma(t *testing.T) {
	t.Parallel()
	cases := slips()
	require.GreaterOrEqual(t, len(cases), 20)
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		for _, tt := range cases {
			t.Run(tt.name, func(t *testing.T) {
				tag := newTag(t)
				args := tt.params
				if tt.action != "" {
					params := map[string]any{fake.Marker: "tag:" + tag}
					for k, v := range tt.params {
						params[k] = v
					}
					args = map[string]any{"action": tt.action, "params": params}
				}
				r := s.call(t, tt.tool, args, nil)
				require.True(t, r.IsError, r.Text)
				assert.Equal(t, "failed", r.Diag.Outcome)
				assert.Equal(t, "invalid_argument", r.Diag.Kind)
				for _, w := range tt.want {
					assert.Contains(t, r.Text, w)
				}
				assert.NotContains(t, r.Diag.NextStep, "Correct the arguments as described; get_action", "the next step fits the slip")
				assert.Empty(t, snow.ByTag(tag), "refused before SnowLuma saw anything")
			})
		}
	})
}

// TestWhatSnowLumaReadsGoesThrough: the keys SnowLuma reads beside its
// declaration, and a quoted id in preview_message, are accepted.
func TestWhatSnowLumaReadsGoesThrough(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		for _, tt := range []struct {
			name, tool, action string
			params             map[string]any
		}{
			{"get_forward_msg's message_id, quoted", "query_action", "get_forward_msg", map[string]any{"message_id": "2137770485"}},
			{"get_mini_app_ark's undeclared card fields", "query_action", "get_mini_app_ark", map[string]any{"type": "bili", "title": "t", "desc": "d", "pic_url": "https://p", "jumpUrl": "https://j"}},
			{"send_group_forward_msg's preview fields", "invoke_action", "send_group_forward_msg", map[string]any{
				"group_id": fake.GroupID,
				"messages": []any{map[string]any{"type": "node", "data": map[string]any{"user_id": fake.AliceID, "nickname": "a", "content": "x"}}},
				"source":   "s", "summary": "m", "prompt": "p", "news": []any{"n"},
			}},
			{"click_inline_keyboard_button's button", "invoke_action", "click_inline_keyboard_button", map[string]any{"group_id": fake.GroupID, "bot_appid": 1, "msg_seq": 2, "button_id": 7, "callback_data": "c"}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				tag := newTag(t)
				params := map[string]any{fake.Marker: "tag:" + tag}
				for k, v := range tt.params {
					params[k] = v
				}
				r := s.call(t, tt.tool, map[string]any{"action": tt.action, "params": params}, nil)
				assert.NotEqual(t, "invalid_argument", r.Diag.Kind, r.Text)
				assert.Len(t, snow.ByTag(tag), 1, "the call reached SnowLuma: %s", r.Text)
			})
		}
		r := s.call(t, "preview_message", map[string]any{"message_type": "group", "target_id": "20001", "text": "x", "reply_to": "-5"}, nil)
		require.False(t, r.IsError, r.Text)
		assert.Contains(t, r.Text, `"group_id":20001`)
	})
}

// TestAFailedQuerySaysNothingOfWrites: a read that SnowLuma fails (a
// message it does not have) gets a next step for a read.
func TestAFailedQuerySaysNothingOfWrites(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, readEnv())
		r := s.call(t, "query_action", map[string]any{"action": "get_msg", "params": map[string]any{"message_id": 987654321}}, nil)
		require.Equal(t, "business_failure", r.Diag.Kind, r.Text)
		assert.Contains(t, r.Diag.NextStep, "can be asked again")
		assert.NotContains(t, r.Diag.NextStep, "write")
	})
}
