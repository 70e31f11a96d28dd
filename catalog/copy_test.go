package catalog

import (
	"encoding/json"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// messageWrites is the golden list of every write that names an existing
// message, with whether it sends that message again as the account's own
// (and so declares copies) and why, from what SnowLuma's source does with
// the message (packages/onebot/src/actions, modules/message-actions.ts).
var messageWrites = map[string]struct {
	copies bool
	why    string
}{
	"forward_group_single_msg":  {true, "forwardSingleMessage: the stored event's segments are sent again to the group and cached as the account's (finalizeSend)"},
	"forward_friend_single_msg": {true, "forwardSingleMessage: the stored event's segments are sent again to the user and cached as the account's (finalizeSend)"},
	"set_msg_emoji_like":        {false, "a reaction on the message; no words of it are sent"},
	"set_group_reaction":        {false, "a reaction on the message; no words of it are sent"},
	"set_essence_msg":           {false, "marks the message essence; get_essence_msg_list names its sender as its author"},
	"delete_essence_msg":        {false, "takes the mark away"},
	"delete_msg":                {false, "recalls the message"},
	"mark_msg_as_read":          {false, "a read receipt"},
	"mark_group_msg_as_read":    {false, "a read receipt"},
	"mark_private_msg_as_read":  {false, "a read receipt"},
	"set_group_todo":            {false, "marks the message a group to-do; no words of it are sent"},
	"complete_group_todo":       {false, "settles the to-do"},
	"cancel_group_todo":         {false, "takes the to-do away"},
}

// TestCopyingActions holds the copies declarations to the golden list:
// every write with a message_id param is decided, and exactly the copying
// ones name it and read it back with get_msg.
func TestCopyingActions(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, a := range load(t).Actions() {
		if a.ReadOnly {
			assert.Nil(t, a.Copies, "%s is a read", a.Name)
			continue
		}
		for _, p := range a.Params {
			if p.Role != "message_id" {
				continue
			}
			w, ok := messageWrites[a.Name]
			if !assert.True(t, ok, "%s writes with a message id: decide whether it copies the message", a.Name) {
				continue
			}
			require.NotEmpty(t, w.why, a.Name)
			seen[a.Name] = true
			if w.copies {
				assert.Equal(t, &Copy{Param: p.Name, Read: "get_msg"}, a.Copies, a.Name)
			} else {
				assert.Nil(t, a.Copies, a.Name)
			}
		}
		if a.Copies != nil {
			assert.NotNil(t, a.Delivers, "%s sends a copy, so it is a delivery", a.Name)
		}
	}
	for name := range messageWrites {
		assert.True(t, seen[name], "%s is no write with a message id", name)
	}
}

func TestCopySourceNamesTheSameMessage(t *testing.T) {
	t.Parallel()
	c := &Copy{Param: "message_id", Read: "get_msg"}
	tests := []struct {
		name, params, want, err string
	}{
		{"a negative id, byte for byte", `{"message_id":-1264852461,"group_id":1}`, `{"message_id":-1264852461}`, ""},
		{"a string id as given", `{"group_id":1,"message_id":"2137770485"}`, `{"message_id":"2137770485"}`, ""},
		{"no message named", `{"group_id":1}`, "", "params.message_id is required"},
		{"params that are no object", `[1]`, "", "JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.Source(json.RawMessage(tt.params))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestBuildRefusesACopyItCannotFollow(t *testing.T) {
	t.Parallel()
	const read = `{"name":"get_x","category":"消息","summary":"s","readOnly":true,"params":[{"name":"message_id","type":"int","required":true,"schema":{"type":"integer"},"description":"d"}],"returnsSchema":null%s}`
	const copier = `{"name":"send_x","category":"消息","summary":"s","params":[{"name":"message_id","type":"int","required":true,"schema":{"type":"integer"},"description":"d"}],"returnsSchema":null,"delivers":{"targets":[]},"copies":%s}`
	spots := `,"thirdParty":[{"at":"","shape":"message"}]`
	tests := []struct {
		name, read, copies, want string
	}{
		{"a param the action does not take", spots, `{"param":"id","read":"get_x"}`, `param "id" is not one of its params`},
		{"a read that is no action", spots, `{"param":"message_id","read":"get_y"}`, `read "get_y" is no action`},
		{"a read that declares no words", "", `{"param":"message_id","read":"get_x"}`, "must be a read that declares"},
		{"an unknown field", spots, `{"param":"message_id","read":"get_x","why":"x"}`, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := fstest.MapFS{
				"catalog.json":        {Data: []byte(`{"version":"v","categories":[{"name":"消息","slug":"message"}]}`)},
				"message/get_x.json":  {Data: []byte(fmt.Sprintf(read, tt.read))},
				"message/send_x.json": {Data: []byte(fmt.Sprintf(copier, tt.copies))},
			}
			_, err := Build(src)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
