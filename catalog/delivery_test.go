package catalog

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deliveries is the golden list of the actions that put content the caller
// authors in front of other people, with the params that name where each
// goes, in routing order (then "required" when a call must give one to be
// paced): a change here is a change to what the pacing stage charges.
var deliveries = map[string]string{
	"send_msg":                   "group_id:group user_id:user",
	"send_group_msg":             "group_id:group",
	"send_private_msg":           "user_id:user",
	"send_forward_msg":           "group_id:group user_id:user",
	"send_group_forward_msg":     "group_id:group",
	"send_private_forward_msg":   "user_id:user",
	"forward_group_single_msg":   "group_id:group",
	"forward_friend_single_msg":  "user_id:user",
	"send_group_ai_record":       "group_id:group",
	"get_ai_record":              "group_id:group",
	"send_flash_msg":             "group_id:group user_id:user",
	"send_poke":                  "group_id:group user_id:user",
	"group_poke":                 "group_id:group",
	"friend_poke":                "user_id:user",
	"send_like":                  "user_id:user",
	"set_group_reaction":         "group_id:group required",
	"set_msg_emoji_like":         "",
	"like_qzone":                 "target_uin:user",
	"comment_qzone":              "target_uin:user",
	"do_group_album_comment":     "group_id:group",
	"set_group_album_media_like": "group_id:group",
	"send_qzone_msg":             "",
	"_send_group_notice":         "group_id:group",
	"set_group_sign":             "group_id:group",
	"upload_group_file":          "group_id:group",
	"upload_private_file":        "user_id:user",
	"upload_image_to_qun_album":  "group_id:group",
	"send_packet":                "",
}

// TestDeliveringActions holds the catalog's delivers declarations to the
// golden list: every delivering action with its targets in routing order.
func TestDeliveringActions(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	for _, a := range load(t).Actions() {
		if a.Delivers == nil {
			continue
		}
		var targets []string
		for _, tg := range a.Delivers.Targets {
			targets = append(targets, tg.Param+":"+tg.Chat)
		}
		if a.Delivers.Required {
			targets = append(targets, "required")
		}
		got[a.Name] = strings.Join(targets, " ")
	}
	assert.Equal(t, deliveries, got)
}

// TestEveryWriteIsDecided: every write either delivers, with the reason
// the docs give, or is grouped as a write that is not paced, and nothing
// else has either; so a new action must be decided.
func TestEveryWriteIsDecided(t *testing.T) {
	t.Parallel()
	groups := []string{"moderation", "settings", "takes back", "own files", "own state"}
	reasons, grouped := 0, 0
	for _, a := range load(t).Actions() {
		reason, group := DeliveryReason(a.Name), UnpacedGroup(a.Name)
		switch {
		case a.Delivers != nil:
			assert.NotEmpty(t, reason, "%s delivers: say why", a.Name)
			assert.Empty(t, group, "%s delivers, so it is paced", a.Name)
		case !a.ReadOnly:
			assert.Contains(t, groups, group, "%s writes: decide whether it delivers", a.Name)
			assert.Empty(t, reason, "%s does not deliver", a.Name)
		default:
			assert.Empty(t, reason+group, "%s is a read", a.Name)
		}
		if reason != "" {
			reasons++
		}
		if group != "" {
			grouped++
		}
	}
	assert.Len(t, deliveryReasons, reasons, "a reason for an action the catalog lacks")
	assert.Len(t, unpacedGroups, grouped, "a group for an action the catalog lacks")
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
			var schema struct {
				Type any `json:"type"`
			}
			require.NoError(t, json.Unmarshal(p.Schema, &schema))
			assert.Equal(t, "integer", schema.Type, "%s.%s: a declared target takes only integers (docs/pacing.md)", a.Name, tg.Param)
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
