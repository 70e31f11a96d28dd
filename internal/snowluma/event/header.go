package event

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The header fields Decode reads, as indices into a header.
const (
	fieldTime = iota
	fieldSelfID
	fieldPostType
	fieldMetaType
	fieldSubType
	fieldGroupID
	fieldUserID
	fieldCount
)

// fieldNames are the header's keys, exactly as OneBot spells them.
var fieldNames = [fieldCount]string{"time", "self_id", "post_type", "meta_event_type", "sub_type", "group_id", "user_id"}

// header holds each header field's raw value, nil when the frame has none.
type header [fieldCount]json.RawMessage

// readHeader reads the header fields of a valid JSON object. Keys match
// exactly. encoding/json would match them regardless of case (and fold ſ to
// s and K to k), so a frame could carry self_id for one reader and Self_ID
// for another: the account check would pass on a field the agent never
// reads. A key that folds to a header key is therefore allowed only alone;
// beside the key it imitates, or twice in any spelling, the frame is
// refused, since which of them counts would be a guess.
func readHeader(object []byte) (*header, error) {
	var h header
	var seen [fieldCount]string
	m := members{data: object, at: 1} // past the opening brace
	for {
		key, value, ok := m.next()
		if !ok {
			return &h, nil
		}
		i := lookup(key)
		if i < 0 {
			continue
		}
		if seen[i] != "" {
			return nil, malformed(fmt.Sprintf("the frame carries %s twice (as %.40q and %.40q)", fieldNames[i], seen[i], key))
		}
		seen[i] = string(key)
		if string(key) == fieldNames[i] {
			h[i] = value
		}
	}
}

// members walks the members of a JSON object that json.Valid accepted, so
// it can step over values without checking them again: a value's extent is
// found by matching brackets outside strings.
type members struct {
	data []byte
	at   int
}

// next returns the next member's key, unescaped, and its raw value.
func (m *members) next() (key []byte, value json.RawMessage, ok bool) {
	m.space()
	if m.at >= len(m.data) || m.data[m.at] == '}' {
		return nil, nil, false
	}
	if m.data[m.at] == ',' {
		m.at++
		m.space()
	}
	start := m.at
	m.skipString()
	rawKey := m.data[start:m.at]
	key = rawKey[1 : len(rawKey)-1]
	if bytes.IndexByte(rawKey, '\\') >= 0 {
		var s string
		_ = json.Unmarshal(rawKey, &s) // valid JSON: cannot fail
		key = []byte(s)
	}
	m.space()
	m.at++ // the colon
	m.space()
	start = m.at
	m.skipValue()
	return key, m.data[start:m.at], true
}

func (m *members) space() {
	for m.at < len(m.data) {
		switch m.data[m.at] {
		case ' ', '\t', '\n', '\r':
			m.at++
		default:
			return
		}
	}
}

// skipString steps over a string, its quotes included.
func (m *members) skipString() {
	for m.at++; m.at < len(m.data); m.at++ {
		switch m.data[m.at] {
		case '\\':
			m.at++
		case '"':
			m.at++
			return
		}
	}
}

// skipValue steps over one value of any kind.
func (m *members) skipValue() {
	depth := 0
	for m.at < len(m.data) {
		switch c := m.data[m.at]; c {
		case '"':
			m.skipString()
			if depth == 0 {
				return
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return // the end of the enclosing object
			}
			depth--
			if depth == 0 {
				m.at++
				return
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return
			}
		}
		m.at++
	}
}

// lookup returns the header field key spells, exactly or in another case,
// or -1.
func lookup(key []byte) int {
	for i, name := range fieldNames {
		if bytes.EqualFold(key, []byte(name)) {
			return i
		}
	}
	return -1
}
