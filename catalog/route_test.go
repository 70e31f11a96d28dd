package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryTargetParamIsReadAsSnowLumaReadsIt gives every target param of
// every delivering action each spelling: those SnowLuma reads as the same
// whole number the server does name that chat; every other one (SnowLuma
// reads hex, binary and octal strings, truncates fractions, and loses
// precision past 2^53) is refused before anything is spent.
func TestEveryTargetParamIsReadAsSnowLumaReadsIt(t *testing.T) {
	t.Parallel()
	spellings := []struct {
		name, value, id string // id "" means refused
	}{
		{"a JSON integer", `20001`, "20001"},
		{"a JSON number with a zero fraction", `20001.0`, "20001"},
		{"a JSON number with an exponent and no fraction left", `2.0001e4`, "20001"},
		{"a string of decimal digits", `"20001"`, "20001"},
		{"a string with spaces around, which the params stage refuses", `" 20001 "`, ""},
		{"a string with tabs and line breaks around", `"\t20001\n"`, ""},
		{"a string with leading zeros", `"020001"`, "20001"},
		{"the largest exact ID", `9007199254740991`, "9007199254740991"},
		{"the largest exact ID as a string", `"9007199254740991"`, "9007199254740991"},
		{"a hex string", `"0x4E21"`, ""},
		{"a binary string", `"0b100111000100001"`, ""},
		{"an octal string", `"0o47041"`, ""},
		{"a hex float string", `"0x4E22p0"`, ""},
		{"a fraction", `20001.5`, ""},
		{"a fraction in a string", `"20001.7"`, ""},
		{"an exponent in a string", `"2e4"`, ""},
		{"a signed string", `"+20001"`, ""},
		{"digits with a space inside", `"20 001"`, ""},
		{"an empty string", `""`, ""},
		{"a blank string", `"  "`, ""},
		{"zero", `0`, ""},
		{"a negative number", `-5`, ""},
		{"a negative string", `"-5"`, ""},
		{"2^53, which SnowLuma cannot tell from 2^53+1", `9007199254740992`, ""},
		{"2^53+1 as a string", `"9007199254740993"`, ""},
		{"a number too large for a float", `1e400`, ""},
		{"Infinity as a string", `"Infinity"`, ""},
		{"true", `true`, ""},
		{"null", `null`, ""},
		{"an array", `[20001]`, ""},
		{"an object", `{"id":20001}`, ""},
		{"a space outside JavaScript's reach", `"\u008520001"`, ""},
	}
	n := 0
	for _, a := range load(t).Actions() {
		if a.Delivers == nil {
			continue
		}
		for _, tg := range a.Delivers.Targets {
			n++
			for _, sp := range spellings {
				t.Run(a.Name+"/"+tg.Param+"/"+sp.name, func(t *testing.T) {
					params := json.RawMessage(`{"` + tg.Param + `":` + sp.value + `}`)
					got, err := a.Delivers.Route(params)
					if tg.ZeroSkips && sp.value == `0` {
						require.NoError(t, err, "0 is the placeholder for a branch that does not apply")
						assert.Equal(t, Route{}, got)
						return
					}
					if sp.id == "" {
						require.Error(t, err)
						assert.Contains(t, err.Error(), "params."+tg.Param+": a target must be a whole number from 1 to 2^53-1")
						assert.Contains(t, err.Error(), "; "+sp.value+" is not", "the value as given")
						return
					}
					require.NoError(t, err)
					assert.Equal(t, Route{Chat: tg.Chat, ID: sp.id}, got)
				})
			}
		}
	}
	assert.Equal(t, 29, n, "target params across the delivering actions")
}

// TestRoutesFollowSnowLumasRules holds the actions that can go to a group
// or a user to SnowLuma's routing: send_msg and send_forward_msg pick a
// group when message_type is "group" or a group_id is given, then a user;
// send_poke and send_flash_msg take group_id first.
func TestRoutesFollowSnowLumasRules(t *testing.T) {
	t.Parallel()
	group := func(id string) Route { return Route{Chat: ChatGroup, ID: id} }
	user := func(id string) Route { return Route{Chat: ChatUser, ID: id} }
	tests := []struct {
		name, action, params string
		want                 Route
		err                  string
	}{
		{"a group_id wins over a user_id", "send_forward_msg", `{"group_id":20002,"user_id":30003}`, group("20002"), ""},
		{"a user_id alone is a private forward", "send_forward_msg", `{"user_id":"30003"}`, user("30003"), ""},
		{"a forward without a target only uploads, charged to the account", "send_forward_msg", `{"messages":[]}`, Route{}, ""},
		{"a group_id SnowLuma would misread is refused, not charged to the user", "send_forward_msg", `{"group_id":"0x4E22p0","user_id":30003}`, Route{}, "params.group_id"},
		{"a zero group_id is the placeholder SnowLuma skips", "send_forward_msg", `{"group_id":0,"user_id":30003}`, user("30003"), ""},
		{"a zero group_id beside message_type private goes to the user", "send_forward_msg", `{"message_type":"private","user_id":10002,"group_id":0}`, user("10002"), ""},
		{"a quoted zero group_id is skipped alike", "send_forward_msg", `{"group_id":"0","user_id":30003}`, user("30003"), ""},
		{"a zero user_id beside a group_id goes to the group", "send_forward_msg", `{"group_id":20001,"user_id":0}`, group("20001"), ""},
		{"zeros on both only upload, as SnowLuma does", "send_forward_msg", `{"group_id":0,"user_id":0,"messages":[]}`, Route{}, ""},
		{"message_type group with a zero group_id is refused with SnowLuma's reason", "send_forward_msg", `{"message_type":"group","group_id":0}`, Route{}, `params.group_id is required: message_type "group" sends to a group, and SnowLuma refuses the call without one ("group_id is required")`},
		{"message_type private with a zero user_id is refused with SnowLuma's reason", "send_forward_msg", `{"message_type":"private","user_id":0,"group_id":0}`, Route{}, `("user_id is required")`},
		{"a zero is skipped only where the contract says so", "send_msg", `{"group_id":0,"user_id":10002}`, Route{}, "params.group_id: a target must be a whole number"},
		{"a bad user_id is refused even beside a group_id", "send_forward_msg", `{"group_id":20001,"user_id":"abc"}`, Route{}, "params.user_id"},
		{"message_type group without a group_id is refused as SnowLuma refuses it", "send_forward_msg", `{"message_type":"group","user_id":30003}`, Route{}, `params.group_id is required: message_type "group" sends to a group`},
		{"message_type private without a user_id is refused", "send_forward_msg", `{"message_type":"private"}`, Route{}, "params.user_id is required"},
		{"a group_id wins over message_type private", "send_forward_msg", `{"message_type":"private","group_id":20001,"user_id":30003}`, group("20001"), ""},
		{"message_type is compared exactly", "send_forward_msg", `{"message_type":"Group","user_id":30003}`, user("30003"), ""},
		{"send_msg: a group_id wins", "send_msg", `{"user_id":10002,"group_id":20001}`, group("20001"), ""},
		{"send_msg: a user_id alone", "send_msg", `{"user_id":10002}`, user("10002"), ""},
		{"send_msg: message_type group needs a group_id", "send_msg", `{"message_type":"group","user_id":10002}`, Route{}, "params.group_id is required"},
		{"send_poke: in the group when one is given", "send_poke", `{"user_id":30003,"group_id":20001}`, group("20001"), ""},
		{"send_poke: privately otherwise", "send_poke", `{"user_id":30003}`, user("30003"), ""},
		{"send_flash_msg: the group first", "send_flash_msg", `{"fileset_id":"x","user_id":30003,"group_id":20001}`, group("20001"), ""},
		{"like_qzone: the account's own space without target_uin, charged to the account alone", "like_qzone", `{"tid":"x"}`, Route{}, ""},
		{"comment_qzone: the account's own space without target_uin, charged to the account alone", "comment_qzone", `{"tid":"x","content":"hi"}`, Route{}, ""},
		{"comment_qzone: another user's space is that user's", "comment_qzone", `{"tid":"x","content":"hi","target_uin":30003}`, user("30003"), ""},
		{"set_group_reaction: in the group it names", "set_group_reaction", `{"group_id":20001,"message_id":-5,"code":"76"}`, group("20001"), ""},
		{"set_group_reaction: without group_id it is refused, not charged to the account alone", "set_group_reaction", `{"message_id":-5,"code":"76"}`, Route{}, "params.group_id is required for pacing"},
		{"set_msg_emoji_like: only the message names the chat, charged to the account alone", "set_msg_emoji_like", `{"message_id":-5,"emoji_id":"76"}`, Route{}, ""},
		{"params that are no object are refused", "send_group_msg", `[1]`, Route{}, "JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, ok := load(t).Lookup(tt.action)
			require.True(t, ok)
			got, err := a.Delivers.Route(json.RawMessage(tt.params))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestARefusedTargetIsShownCut: a long value is repeated only in part.
func TestARefusedTargetIsShownCut(t *testing.T) {
	t.Parallel()
	a, ok := load(t).Lookup("send_group_msg")
	require.True(t, ok)
	long := strings.Repeat("9", 5000)
	_, err := a.Delivers.Route(json.RawMessage(`{"group_id":"` + long + `"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `; "999`)
	assert.Contains(t, err.Error(), "… is not")
	assert.Less(t, len(err.Error()), 600)
}

// TestEveryDeliveringExampleIsPaceable: the examples get_action shows are
// calls an agent copies, so each one of a delivering action names its
// chat as pacing needs (set_group_reaction's group_id included).
func TestEveryDeliveringExampleIsPaceable(t *testing.T) {
	t.Parallel()
	for _, a := range load(t).Actions() {
		if a.Delivers == nil {
			continue
		}
		for _, ex := range a.Examples {
			_, err := a.Delivers.Route(ex.Params)
			assert.NoError(t, err, "%s: %s", a.Name, ex.Summary)
		}
	}
}
