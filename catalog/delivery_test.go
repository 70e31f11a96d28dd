package catalog

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// delivery is one golden entry: the params that name where the action
// goes, in routing order (then "required" when a call must give one to be
// paced), and why it counts as a delivery, from what SnowLuma's source
// does with the call (packages/onebot/src/actions).
type delivery struct{ targets, why string }

// deliveries is the golden list of the actions that put content the caller
// authors in front of other people: a change here is a change to what the
// pacing stage charges.
var deliveries = map[string]delivery{
	// messages, forwards and voice
	"send_msg":                  {"group_id:group user_id:user", "sends a message; message_type or a group_id picks a group, else user_id"},
	"send_group_msg":            {"group_id:group", "sends a group message"},
	"send_private_msg":          {"user_id:user", "sends a private message"},
	"send_forward_msg":          {"group_id:group user_id:user", "sends a forward; message_type or a group_id > 0 picks a group, then user_id; neither only uploads"},
	"send_group_forward_msg":    {"group_id:group", "sends a forward to a group"},
	"send_private_forward_msg":  {"user_id:user", "sends a forward to a user"},
	"forward_group_single_msg":  {"group_id:group", "forwards a stored message to a group"},
	"forward_friend_single_msg": {"user_id:user", "forwards a stored message to a friend"},
	"send_group_ai_record":      {"group_id:group", "fetchAiVoice posts the voice clip to the group"},
	"get_ai_record":             {"group_id:group", "calls the same fetchAiVoice(group_id, …) as send_group_ai_record, which posts the clip to the group, then returns its URL"},
	"send_flash_msg":            {"group_id:group user_id:user", "sends a flash-transfer message; sendFlashMsg takes group_id first"},
	// pokes, likes, reactions, comments
	"send_poke":                  {"group_id:group user_id:user", "pokes user_id, in group_id when given, else privately"},
	"group_poke":                 {"group_id:group", "pokes a member in the group"},
	"friend_poke":                {"user_id:user", "pokes a friend"},
	"send_like":                  {"user_id:user", "likes a user's profile; they are notified"},
	"set_group_reaction":         {"group_id:group required", "reacts to a group message with an emoji everyone sees, in the message's own group (SnowLuma refuses a group_id that is not it), so a call without group_id is refused rather than charged to the account alone"},
	"set_msg_emoji_like":         {"", "reacts to a message with an emoji; only the message names the chat, and the action has no param that could"},
	"like_qzone":                 {"target_uin:user", "likes a Qzone post; target_uin left out is the account's own space, charged to the account alone like send_qzone_msg"},
	"comment_qzone":              {"target_uin:user", "comments on a Qzone post; target_uin left out is the account's own space, charged to the account alone like send_qzone_msg"},
	"do_group_album_comment":     {"group_id:group", "comments on a group album item"},
	"set_group_album_media_like": {"group_id:group", "likes a group album item"},
	// posts, shares, notices, sign-ins, files
	"send_qzone_msg":            {"", "publishes a Qzone post on the account's own space; SnowLuma's source warns that frequent posting trips Qzone's risk control"},
	"_send_group_notice":        {"group_id:group", "publishes a group notice"},
	"set_group_sign":            {"group_id:group", "signs in to the group, which posts to the group"},
	"upload_group_file":         {"group_id:group", "posts a file to the group"},
	"upload_private_file":       {"user_id:user", "sends a file to a user"},
	"upload_image_to_qun_album": {"group_id:group", "posts an image to a group album, which the group's members see"},
	// a raw packet can do anything, sending included
	"send_packet": {"", "sends a raw SSO packet, which can be a message to anyone; charged to the account, it bypasses per-target pacing"},
}

// notDeliveries are the writes that deliver nothing, each with why: they
// change settings or moderate (out of pacing's scope), take something
// back, or only touch the account's own files and state. Every write is in
// exactly one of the two lists, so a new action must be decided.
var notDeliveries = map[string]string{
	"_del_group_notice": "takes back", "delete_msg": "takes back", "delete_qzone_msg": "takes back",
	"delete_essence_msg": "moderation", "del_group_album_media": "takes back",
	"cancel_group_album_media_like": "takes back", "unlike_qzone": "takes back",
	"set_essence_msg": "moderation", "set_group_todo": "moderation", "complete_group_todo": "moderation", "cancel_group_todo": "moderation",
	"set_group_ban": "moderation", "set_group_whole_ban": "moderation", "set_group_kick": "moderation", "set_group_kick_members": "moderation",
	"set_group_admin": "moderation", "set_group_special_title": "moderation", "set_group_card": "moderation",
	"set_group_anonymous": "moderation", "set_group_anonymous_ban": "moderation",
	"set_group_add_request": "moderation", "set_friend_add_request": "moderation", "set_doubt_friends_add_request": "moderation",
	"set_group_name": "settings", "set_group_portrait": "settings", "set_group_add_option": "settings", "set_group_search": "settings",
	"set_group_robot_add_option": "settings", "set_group_remark": "settings", "set_friend_remark": "settings",
	"set_group_leave": "settings", "delete_friend": "settings",
	"set_qq_profile": "settings", "set_self_longnick": "settings", "set_qq_avatar": "settings",
	"set_online_status": "settings", "set_diy_online_status": "settings", "set_input_status": "settings", "_set_model_show": "settings",
	"mark_msg_as_read": "settings", "mark_group_msg_as_read": "settings", "mark_private_msg_as_read": "settings", "_mark_all_as_read": "settings",
	"click_inline_keyboard_button": "settings",
	"add_custom_face":              "own files", "delete_custom_face": "own files", "modify_custom_face": "own files", "move_custom_face_to_front": "own files",
	"create_group_file_folder": "own files", "delete_group_file": "own files", "delete_group_file_folder": "own files", "delete_group_folder": "own files",
	"move_group_file": "own files", "rename_group_file": "own files", "rename_group_file_folder": "own files", "trans_group_file": "own files",
	"create_flash_task": "own files", "delete_flash_file": "own files", "rename_flash_file": "own files",
	"download_fileset": "own files", "get_fileset_info": "own files", "get_flash_file_list": "own files", "get_flash_file_url": "own files",
	"get_share_link": "own files", "list_filesets": "own files", "upload_forward_msg": "own files", "upload_foward_msg": "own files",
	"download_file": "own files", "upload_file_stream": "own files", "download_file_stream": "own files",
	"download_file_image_stream": "own files", "download_file_record_stream": "own files", "clean_stream_temp_file": "own files",
	"test_download_stream": "own files", "request_decrypt_key": "own files", "create_collection": "own files",
	"bot_exit": "own state", "set_restart": "own state", "clean_cache": "own state",
}

// TestDeliveringActions holds the catalog's delivers declarations to the
// golden lists: every delivering action with its targets in routing order,
// and every other write decided as no delivery.
func TestDeliveringActions(t *testing.T) {
	t.Parallel()
	want := map[string]string{}
	for name, d := range deliveries {
		require.NotEmpty(t, d.why, name)
		want[name] = d.targets
	}
	got := map[string]string{}
	for _, a := range load(t).Actions() {
		if a.Delivers == nil {
			if !a.ReadOnly {
				assert.Contains(t, notDeliveries, a.Name, "%s writes: decide whether it delivers", a.Name)
			}
			continue
		}
		assert.NotContains(t, notDeliveries, a.Name)
		var targets []string
		for _, tg := range a.Delivers.Targets {
			targets = append(targets, tg.Param+":"+tg.Chat)
		}
		if a.Delivers.Required {
			targets = append(targets, "required")
		}
		got[a.Name] = strings.Join(targets, " ")
	}
	assert.Equal(t, want, got)
	for name := range notDeliveries {
		a, ok := load(t).Lookup(name)
		if assert.True(t, ok, name) {
			assert.False(t, a.ReadOnly, "%s is a read, not a write that delivers nothing", name)
		}
	}
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
