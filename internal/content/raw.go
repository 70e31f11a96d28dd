package content

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The scanner below walks JSON that json.Valid has accepted, so that an
// item can be rewritten in place: members the filter leaves alone keep
// their bytes exactly (numbers as written, key order, escapes), which is
// what lets a result without third-party content leave byte for byte as
// it came. Every index is still checked, so even input that is not valid
// JSON cannot make it panic; it only makes it report failure.

// member is one member of an object: its decoded key and where its value
// lies in the object's bytes.
type member struct {
	key        []byte // decoded; compared as string(key), which allocates nothing
	keyStart   int    // where the member begins: its key's opening quote
	start, end int    // the value: obj[start:end]
}

// members splits an object into its members, in order; ok is false when
// obj is not an object.
func members(obj []byte) (out []member, ok bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return nil, true
	}
	out = make([]member, 0, 16)
	for i < len(obj) {
		kstart := i
		kend := skipString(obj, i)
		if kend < 0 {
			return nil, false
		}
		key, ok := decodeKey(obj[i:kend])
		if !ok {
			return nil, false
		}
		i = skipSpace(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return nil, false
		}
		i = skipSpace(obj, i+1)
		end := skipValue(obj, i)
		if end < 0 {
			return nil, false
		}
		out = append(out, member{key: key, keyStart: kstart, start: i, end: end})
		i = skipSpace(obj, end)
		if i >= len(obj) {
			return nil, false
		}
		switch obj[i] {
		case '}':
			return out, true
		case ',':
			i = skipSpace(obj, i+1)
		default:
			return nil, false
		}
	}
	return nil, false
}

// elements splits an array into its elements' spans; ok is false when arr
// is not an array.
func elements(arr []byte) (out [][2]int, ok bool) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil, false
	}
	i = skipSpace(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return nil, true
	}
	for i < len(arr) {
		end := skipValue(arr, i)
		if end < 0 {
			return nil, false
		}
		out = append(out, [2]int{i, end})
		i = skipSpace(arr, end)
		if i >= len(arr) {
			return nil, false
		}
		switch arr[i] {
		case ']':
			return out, true
		case ',':
			i = skipSpace(arr, i+1)
		default:
			return nil, false
		}
	}
	return nil, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the end of the string starting at b[i], or -1.
func skipString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the end of the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end := skipString(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	start := i
	for i < len(b) && !delimiter(b[i]) {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// decodeKey reads a quoted key; only keys with escapes need the decoder.
func decodeKey(q []byte) ([]byte, bool) {
	if len(q) < 2 {
		return nil, false
	}
	if bytes.IndexByte(q, '\\') < 0 {
		return q[1 : len(q)-1], true
	}
	var s string
	if json.Unmarshal(q, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// find returns the value of the member named key; ok is false when obj has
// none (or is not an object).
func find(obj []byte, key string) ([]byte, bool) {
	ms, ok := members(obj)
	if !ok {
		return nil, false
	}
	return findIn(obj, ms, key)
}

// findIn is find over members already split.
func findIn(obj []byte, ms []member, key string) ([]byte, bool) {
	for _, m := range ms {
		if string(m.key) == key {
			return obj[m.start:m.end], true
		}
	}
	return nil, false
}

// absent reports whether a value is missing or null.
func absent(v []byte) bool { return len(v) == 0 || string(v) == "null" }

// qqID reads a QQ number written as a JSON integer or a decimal string (at
// segments and some web APIs use strings). ok is false for anything else;
// zero, the empty string and null read as "nobody" (id 0, ok true).
func qqID(v []byte) (id int64, ok bool) {
	if absent(v) {
		return 0, true
	}
	s := string(v)
	if v[0] == '"' {
		if json.Unmarshal(v, &s) != nil {
			return 0, false
		}
		if s == "" {
			return 0, true
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
