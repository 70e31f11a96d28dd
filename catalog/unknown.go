package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/snowluma/snowluma-mcp/internal/typo"
	"sort"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Unknown refuses a call whose params give a top-level key that SnowLuma
// neither declares nor reads raw for the action (Reads). The params stage
// and the input stage (before it asks the user, and for the answer) both
// call it, so every tool that runs an action refuses the same keys.
// SnowLuma's parser (defineAction.parse) drops such a key without a word,
// so the call could never do what was meant: a misspelt "nickname" for
// set_group_card leaves card at its default "" and clears the member's
// card. Only top-level keys are looked at; what is inside a param (message
// segments, forward nodes, news, headers, free-form values) is the param's.
//
// The refusal names each unknown key, the nearest names this action reads
// (by spelling, and by the words models use for SnowLuma's), and the
// action's parameter list. Params that are not an object are left to the
// schema check, which says so.
func (a *Action) Unknown(params json.RawMessage) error {
	keys := topKeys(params)
	var unknown []string
	seen := map[string]bool{}
	for _, k := range keys {
		if !a.Reads(k) && !seen[k] {
			seen[k] = true
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	names := a.ParamNames()
	var parts, swaps, quoted []string
	for _, k := range unknown {
		near := NearestParams(k, names)
		part := fault.Quote(k)
		quoted = append(quoted, part)
		if len(near) > 0 {
			part += " (did you mean " + strings.Join(near, " or ") + "?)"
			swaps = append(swaps, near[0]+" in place of "+fault.Quote(k))
		}
		parts = append(parts, part)
	}
	word := "parameter"
	if len(unknown) > 1 {
		word = "parameters"
	}
	list := "it takes no parameters"
	if len(names) > 0 {
		list = "it reads only " + strings.Join(names, ", ")
	}
	err := fault.Errorf(fault.CodeInvalidArgument,
		"%s does not read the %s %s: SnowLuma drops a parameter it does not know without a word, so the call could not do what was meant, and nothing was sent; %s",
		a.Name, word, strings.Join(parts, ", "), list).Unsent()
	if len(swaps) > 0 {
		return err.Then(fmt.Sprintf("Call again with %s (get_action %s says what each parameter means); nothing was sent, so nothing needs checking first.", strings.Join(swaps, ", "), a.Name))
	}
	return err.Then(fmt.Sprintf("Leave out %s, or use one of the parameters %s reads (get_action %s says what each means); nothing was sent.", strings.Join(quoted, ", "), a.Name, a.Name))
}

// topKeys lists the top-level keys of a JSON object, in order; nil when
// params is not an object or not valid JSON (the schema check says what is
// wrong). It scans the bytes instead of decoding them: it runs on every
// call, and a decoder copied every value (a whole message) to skip it.
func topKeys(params json.RawMessage) []string {
	if !json.Valid(params) {
		return nil
	}
	b := params
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	var keys []string
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == '}' {
			return keys
		}
		if b[i] == ',' {
			i++
			continue
		}
		end := stringEnd(b, i)
		key := b[i:end]
		var k string
		if bytes.IndexByte(key, '\\') < 0 {
			k = string(key[1 : len(key)-1])
		} else if json.Unmarshal(key, &k) != nil {
			return nil
		}
		keys = append(keys, k)
		i = skipSpace(b, end)
		i = skipValue(b, skipSpace(b, i+1)) // past the colon and the value
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string that starts at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// skipValue returns the index just past the JSON value that starts at i
// (valid JSON: json.Valid has checked the document).
func skipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of the enclosing object
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}

// modelWords are the names models (and other OneBot implementations) use
// for a parameter SnowLuma spells otherwise. Each is suggested only where
// the action reads that name: "name" and "count" are real parameters of
// other actions, and a key is only ever looked up here when the action
// does not read it.
var modelWords = map[string][]string{
	"time": {"duration"}, "seconds": {"duration"}, "second": {"duration"}, "mute_time": {"duration"}, "ban_time": {"duration"},
	"ban_duration": {"duration"}, "mute_duration": {"duration"}, "duration_seconds": {"duration"},
	"nickname": {"card", "remark"}, "name": {"card", "group_name", "filename", "new_name"}, "nick": {"card", "nickname"},
	"group_card": {"card"}, "member_card": {"card"}, "card_name": {"card"}, "group_nickname": {"card"},
	"count": {"times"}, "num": {"times", "count"}, "number": {"times", "count"}, "like_times": {"times"},
	"times": {"count"}, "limit": {"count"}, "size": {"count"},
	"text": {"message", "content"}, "content": {"message"}, "msg": {"message"}, "message_text": {"message"}, "body": {"message", "content"},
	"qq": {"user_id"}, "uid": {"user_id"}, "uin": {"user_id"}, "user": {"user_id"}, "qq_id": {"user_id"}, "qq_number": {"user_id"},
	"member_id": {"user_id"}, "friend_id": {"user_id"}, "target_id": {"user_id"}, "target": {"user_id", "group_id"},
	"group": {"group_id"}, "gid": {"group_id"}, "group_number": {"group_id"}, "group_code": {"group_id"}, "group_uin": {"group_id"},
	"msg_id": {"message_id"}, "id": {"message_id"}, "message_seq": {"message_id"}, "reply_id": {"message_id"}, "msg_seq": {"message_id"},
	"title": {"special_title", "group_name"}, "remark_name": {"remark"}, "alias": {"remark"},
	"type": {"message_type"}, "chat_type": {"message_type"}, "detail_type": {"message_type"},
	"enabled": {"enable"}, "on": {"enable"}, "forward": {"messages"}, "nodes": {"messages"},
	"path": {"file"}, "file_path": {"file"}, "image": {"file"}, "url": {"file"},
}

// NearestParams returns up to three of names nearest to key: first those the
// model-words table gives for key, then those spelt nearly like it (case,
// underscores and hyphens aside, within an edit distance of a third of
// its length, at most 3), nearest first.
func NearestParams(key string, names []string) []string {
	reads := map[string]bool{}
	for _, n := range names {
		reads[n] = true
	}
	var out []string
	add := func(n string) {
		for _, o := range out {
			if o == n {
				return
			}
		}
		out = append(out, n)
	}
	for _, w := range modelWords[strings.ToLower(key)] {
		if reads[w] {
			add(w)
		}
	}
	type scored struct {
		name string
		d    int
	}
	var near []scored
	k := foldKey(key)
	if len(k) > maxKey {
		return out // no parameter name is this long: not a slip of one
	}
	limit := min(3, max(1, len(k)/3))
	for _, n := range names {
		if d := typo.Distance(k, foldKey(n)); d <= limit {
			near = append(near, scored{n, d})
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].d < near[j].d })
	for _, s := range near {
		add(s.name)
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// maxKey bounds the keys compared by spelling, so a huge key costs nothing.
const maxKey = 64

// foldKey spells a name without case, underscores or hyphens: userId,
// user-id and USER_ID are one slip from user_id's point of view.
func foldKey(s string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(s))
}
