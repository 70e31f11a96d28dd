package content

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// canary stands for words a stranger wrote; in lockdown it must never come
// out of the filter, whatever surrounds it.
const canary = "CANARY-7d1f0e"

const (
	fuzzSelf     = 10001
	fuzzTrusted  = 10002
	fuzzStranger = 10009
)

// contentKeys are members no shape keeps, so each is content wherever it
// is put.
var contentKeys = []string{"message", "raw_message", "comment", "text", "texts", "html", "content", "msg", "msg_content", "suffix", "zz_unknown"}

// strangerNodes is a message body in which a stranger's words sit inside
// forward nodes: a node segment and a forward segment with a message.
func strangerNodes() []any {
	return []any{
		map[string]any{"type": "text", "data": map[string]any{"text": "fine"}},
		map[string]any{"type": "node", "data": map[string]any{"user_id": fuzzStranger, "content": canary}},
		map[string]any{"type": "forward", "data": map[string]any{"id": "r", "content": []any{
			map[string]any{"user_id": fuzzStranger, "message": []any{map[string]any{"type": "text", "data": map[string]any{"text": canary}}}},
		}}},
	}
}

// plant writes a stranger's words into an item: with trusted false, the
// item itself is the stranger's and every content member holds the
// canary; with trusted true, a trusted user wrote it and the canary sits
// only in forward nodes of the stranger's and in the rendering beside them.
func plant(item map[string]any, sh *shape, trusted bool) {
	for _, path := range sh.authors {
		set(item, path, fuzzStranger)
	}
	if trusted {
		for _, path := range sh.authors {
			set(item, path, fuzzTrusted)
		}
		if sh.body != "" {
			item[sh.body] = strangerNodes()
			item["raw_message"] = "rendered " + canary
		}
		// A trusted item's members with an author of their own (a card,
		// a group's name, an inviter's nickname) are a stranger's or no
		// one's.
		for f, by := range sh.fields {
			for _, p := range by {
				set(item, p, fuzzStranger)
			}
			set(item, f, canary)
		}
		return
	}
	for _, k := range contentKeys {
		if !sh.keeps([]byte(k)) {
			item[k] = canary
		}
	}
	if sh.body != "" {
		item[sh.body] = strangerNodes()
	}
}

// set writes v at a dotted path, making objects on the way.
func set(m map[string]any, path string, v any) {
	for {
		head, rest, more := cutPath(path)
		if !more {
			m[head] = v
			return
		}
		next, ok := m[head].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[head] = next
		}
		m, path = next, rest
	}
}

func cutPath(path string) (string, string, bool) {
	for i := range path {
		if path[i] == '.' {
			return path[:i], path[i+1:], true
		}
	}
	return path, "", false
}

// decodeObject reads fuzz input as an object, or starts from an empty one.
func decodeObject(data []byte) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&m) != nil || m == nil {
		return map[string]any{}
	}
	return m
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// FuzzEvent feeds arbitrary frames to the event filter, both ways: as
// they come (it must not panic, and what it returns for JSON must be
// JSON), and with a stranger's words planted in them (lockdown must never
// let those through, whatever else the frame holds).
func FuzzEvent(f *testing.F) {
	for _, s := range []string{strangerGroupMsg, friendPrivateMsg, ownSentMsg, banNotice, pokeNotice, friendRequest, heartbeat,
		`{}`, `[]`, `"x"`, `{"post_type":"message","message":[{"type":"node","data":{"content":[]}}]}`,
		`{"post_type":"notice","user_id":"1e5"}`, `{"post_type":7,"self_id":{"a":1}}`} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	lockdown, marking := New([]int64{fuzzTrusted}), New(nil)
	f.Fuzz(func(t *testing.T, frame []byte, trusted bool) {
		for _, filter := range []*Filter{lockdown, marking} {
			out := filter.Event(frame)
			if json.Valid(frame) {
				assert.True(t, json.Valid(out), "%s", out)
			}
		}
		if bytes.Contains(frame, []byte(canary)) {
			return
		}
		ev := decodeObject(frame)
		ev["self_id"] = fuzzSelf
		head := encode(t, ev)
		ms, _ := members(head)
		plant(ev, eventShape(head, ms), trusted)
		in := encode(t, ev)
		out := lockdown.Event(in)
		assert.True(t, json.Valid(out))
		assert.False(t, bytes.Contains(out, []byte(canary)), "a stranger's words came through:\n%s", out)
	})
}

// FuzzResult does the same for action results: arbitrary data in the
// envelope of every action the catalog declares, then the same data with
// a stranger's words planted at each declared spot.
func FuzzResult(f *testing.F) {
	cat, err := catalog.Load()
	require.NoError(f, err)
	var declared []*catalog.Action
	for _, a := range cat.Actions() {
		if len(a.ThirdParty) > 0 {
			declared = append(declared, a)
		}
	}
	for _, s := range []string{`null`, `[]`, `{}`, `{"messages":[{}]}`, `[{"message":"x"}]`, `{"messages":"x"}`, `"x"`, `[1,2]`, `{"feeds":[{"uin":"abc"}]}`} {
		for i := range declared {
			f.Add(uint8(i), []byte(s), i%2 == 0)
		}
	}
	lockdown, marking := New([]int64{fuzzTrusted}), New(nil)
	f.Fuzz(func(t *testing.T, which uint8, data []byte, trusted bool) {
		a := declared[int(which)%len(declared)]
		env := data
		if json.Valid(data) {
			env = append(append([]byte(`{"status":"ok","retcode":0,"data":`), data...), '}')
		}
		for _, filter := range []*Filter{lockdown, marking} {
			out, err := filter.Result(env, a.ThirdParty, func() int64 { return fuzzSelf })
			if err == nil {
				assert.True(t, json.Valid(out), "%s", out)
			}
		}
		if bytes.Contains(data, []byte(canary)) {
			return
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&v) != nil {
			v = nil
		}
		for _, s := range a.ThirdParty {
			v = plantAt(v, steps(s.At), shapes[s.Shape], trusted)
		}
		in := encode(t, map[string]any{"status": "ok", "retcode": 0, "data": v})
		out, err := lockdown.Result(in, a.ThirdParty, func() int64 { return fuzzSelf })
		require.NoError(t, err)
		assert.False(t, bytes.Contains(out, []byte(canary)), "%s let a stranger's words through:\n%s", a.Name, out)
	})
}

// plantAt makes v hold at least one item at path and plants the canary in
// every item there.
func plantAt(v any, path []step, sh *shape, trusted bool) any {
	if len(path) == 0 {
		item, ok := v.(map[string]any)
		if !ok {
			item = map[string]any{}
		}
		plant(item, sh, trusted)
		return item
	}
	if path[0].each {
		arr, ok := v.([]any)
		if !ok || len(arr) == 0 {
			arr = []any{nil}
		}
		for i := range arr {
			arr[i] = plantAt(arr[i], path[1:], sh, trusted)
		}
		return arr
	}
	obj, ok := v.(map[string]any)
	if !ok {
		obj = map[string]any{}
	}
	obj[path[0].key] = plantAt(obj[path[0].key], path[1:], sh, trusted)
	return obj
}
