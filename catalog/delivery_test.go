package catalog

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeliveringActions is the golden list of the actions that deliver
// something to a chat or a person, each with the params that name where it
// goes, in routing order. Each was chosen by reading the action's contract:
// a change here is a change to what the pacing stage charges.
func TestDeliveringActions(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		// messages, forwards and voice
		"send_msg":                  "group_id:group user_id:user",
		"send_group_msg":            "group_id:group",
		"send_private_msg":          "user_id:user",
		"send_forward_msg":          "group_id:group user_id:user",
		"send_group_forward_msg":    "group_id:group",
		"send_private_forward_msg":  "user_id:user",
		"forward_group_single_msg":  "group_id:group",
		"forward_friend_single_msg": "user_id:user",
		"send_group_ai_record":      "group_id:group",
		// pokes, likes, reactions, comments
		"send_poke":                  "group_id:group user_id:user",
		"group_poke":                 "group_id:group",
		"friend_poke":                "user_id:user",
		"send_like":                  "user_id:user",
		"set_group_reaction":         "group_id:group",
		"set_msg_emoji_like":         "",
		"like_qzone":                 "target_uin:user",
		"comment_qzone":              "target_uin:user",
		"do_group_album_comment":     "group_id:group",
		"set_group_album_media_like": "group_id:group",
		// shares, notices, sign-ins, files posted to a chat
		"send_flash_msg":      "group_id:group user_id:user",
		"_send_group_notice":  "group_id:group",
		"set_group_sign":      "group_id:group",
		"upload_group_file":   "group_id:group",
		"upload_private_file": "user_id:user",
	}
	got := map[string]string{}
	for _, a := range load(t).Actions() {
		if a.Delivers == nil {
			continue
		}
		var targets []string
		for _, tg := range a.Delivers.Targets {
			targets = append(targets, tg.Param+":"+tg.Chat)
		}
		got[a.Name] = strings.Join(targets, " ")
	}
	assert.Equal(t, want, got)
}

// TestDeliveryTargetsMatchTheirParams holds each declared target to the
// param it names: a declared param must carry the matching role, so a
// group is never read from a user's ID. send_forward_msg reads its targets
// raw and declares neither.
func TestDeliveryTargetsMatchTheirParams(t *testing.T) {
	t.Parallel()
	role := map[string]string{ChatGroup: "group_id", ChatUser: "user_id"}
	for _, a := range load(t).Actions() {
		if a.Delivers == nil {
			continue
		}
		assert.False(t, a.ReadOnly, "%s delivers, so it is no read", a.Name)
		for _, tg := range a.Delivers.Targets {
			var p *Param
			for i := range a.Params {
				if a.Params[i].Name == tg.Param {
					p = &a.Params[i]
				}
			}
			if p == nil {
				assert.Equal(t, "send_forward_msg", a.Name, "%s names an undeclared target param %s", a.Name, tg.Param)
				continue
			}
			assert.Equal(t, role[tg.Chat], p.Role, "%s.%s", a.Name, tg.Param)
		}
	}
}

func TestBuildRefusesAMalformedDelivery(t *testing.T) {
	t.Parallel()
	const head = `{"name":"send_x","category":"消息","summary":"s","params":[],"returnsSchema":null,"delivers":`
	tests := []struct {
		name, delivers, want string
	}{
		{"an unknown kind of chat", `{"targets":[{"param":"group_id","chat":"channel"}]}`, `chat must be "group" or "user"`},
		{"a param named twice", `{"targets":[{"param":"user_id","chat":"user"},{"param":"user_id","chat":"user"}]}`, "named twice"},
		{"a target without a param", `{"targets":[{"param":"","chat":"user"}]}`, "named twice"},
		{"an unknown field", `{"targets":[],"why":"x"}`, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := fstest.MapFS{
				"catalog.json":        {Data: []byte(`{"version":"v","categories":[{"name":"消息","slug":"message"}]}`)},
				"message/send_x.json": {Data: []byte(head + tt.delivers + `}`)},
			}
			_, err := Build(src)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
