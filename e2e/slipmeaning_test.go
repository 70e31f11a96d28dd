package e2e

// Slips by meaning and requests of many keys (issue 49, AGX-8): a key
// whose spelling is nothing like the param it means is refused with that
// param offered and its default named (leaving it out would apply the
// default: approve true accepts the friend request the user wanted
// rejected), nothing sent; a request of 100,000 unknown keys is refused
// with a reply of a few lines, and the server answers the next call.

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestASlipByMeaningIsOfferedTheParamAndItsDefault(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		for _, tt := range []struct {
			name, action string
			params       map[string]any
			text, next   string
		}{
			{"agree for approve, rejecting", "set_friend_add_request", map[string]any{"flag": "f", "agree": false},
				`"agree" (did you mean approve?)`, "approve in place of \"agree\" (approve defaults to true: pass approve: false to reject)"},
			{"nothing near, on an action with a switch", "set_friend_add_request", map[string]any{"flag": "f", "zz_qwerty": false},
				`"zz_qwerty"`, "a parameter left out takes its default: approve defaults to true: pass approve: false to reject"},
			{"chat_id for group_id", "send_group_msg", map[string]any{"chat_id": fake.GroupID, "message": "hi"},
				`"chat_id" (did you mean group_id?)`, "group_id in place of \"chat_id\""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				tag := newTag(t)
				params := map[string]any{fake.Marker: "tag:" + tag}
				for k, v := range tt.params {
					params[k] = v
				}
				r := s.call(t, "invoke_action", map[string]any{"action": tt.action, "params": params}, nil)
				require.True(t, r.IsError, r.Text)
				assert.Equal(t, "failed", r.Diag.Outcome)
				assert.Equal(t, "invalid_argument", r.Diag.Kind)
				assert.Contains(t, r.Text, tt.text)
				assert.Contains(t, r.Diag.NextStep, tt.next)
				assert.Contains(t, r.Diag.NextStep, "nothing was sent")
				assert.NotRegexp(t, `(?i)leave out "agree"`, r.Diag.NextStep)
				assert.Empty(t, snow.ByTag(tag), "refused before SnowLuma saw anything")
			})
		}
	})
}

func TestARequestOfManyKeysGetsASmallRefusal(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		for _, tt := range []struct {
			tool string
			slip bool
		}{{"invoke_action", false}, {"invoke_action", true}, {"invoke_action_with_input", false}} {
			slip := tt.slip
			t.Run(fmt.Sprintf("%s slip=%v", tt.tool, slip), func(t *testing.T) {
				tag := newTag(t)
				params := map[string]any{fake.Marker: "tag:" + tag, "group_id": fake.GroupID, "message": "hi"}
				for i := range 100000 {
					if slip {
						params[fmt.Sprintf("group_id%d", i)] = 1
					} else {
						params[fmt.Sprintf("junk_key_%07d", i)] = 1
					}
				}
				args := map[string]any{"action": "send_group_msg", "params": params}
				req, err := json.Marshal(args)
				require.NoError(t, err)
				began := time.Now()
				r := s.call(t, tt.tool, args, nil)
				took := time.Since(began)
				require.True(t, r.IsError, r.Text)
				assert.Equal(t, "failed", r.Diag.Outcome)
				assert.Equal(t, "invalid_argument", r.Diag.Kind)
				assert.Contains(t, r.Text, "and 99997 more")
				assert.NotEmpty(t, r.Diag.NextStep)
				reply, err := json.Marshal(r.Raw)
				require.NoError(t, err)
				assert.Less(t, len(reply), 4096, "the whole tool result")
				t.Logf("%s %s: a %d-byte request refused in %v (end to end, measured not asserted) with a %d-byte result", version, tt.tool, len(req), took, len(reply))
				assert.Empty(t, snow.ByTag(tag), "refused before SnowLuma saw anything")
				next := s.call(t, "get_action", map[string]any{"name": "send_group_msg"}, nil)
				assert.False(t, next.IsError, "the server answers the next call: %s", next.Text)
			})
		}
	})
}
