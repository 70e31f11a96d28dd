// Package members walks the top-level members of a JSON object in one scan,
// without decoding or copying their values, and checks JSON text (Valid)
// in a third of encoding/json's time. The transport, its screens and the
// stages read an object's keys, or one member, this way: decoding the
// object into a map of raw values scans every value twice more and copies
// each, and a hostile request of 100,000 keys (1.5 MB) paid that in every
// layer it crossed (issue 49).
package members

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Each calls fn with the key and the value of each member of the JSON
// object doc, in order, until fn returns false. The key is the string's
// text as encoding/json decodes a map key (escapes read, invalid UTF-8
// replaced); the value is its bytes as written, without the white space
// around it, as a json.RawMessage member would hold them, and aliases doc.
// A key given twice is passed twice. Each reports whether doc is an object.
//
// doc must be valid JSON (json.Valid): Each checks nothing, so on any
// other input it only promises not to panic.
func Each(doc []byte, fn func(key, value []byte) bool) bool {
	b := doc
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == '}' {
			return true
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '"' {
			return true // not valid JSON: nothing more to read
		}
		end := stringEnd(b, i)
		key := b[i+1 : max(end-1, i+1)]
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			var k string
			if json.Unmarshal(b[i:end], &k) != nil {
				return true
			}
			key = []byte(k)
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return true
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return true
		}
		start := i
		i = skipValue(b, i)
		if !fn(key, b[start:i]) {
			return true
		}
	}
}

// Map is the object doc as a map of its members' raw values, the last
// value of a key given twice winning, as json.Unmarshal into a
// map[string]json.RawMessage gives it for valid JSON, but with the values
// aliasing doc instead of copied; nil when doc is not an object.
func Map(doc []byte) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if !Each(doc, func(k, v []byte) bool {
		m[string(k)] = v
		return true
	}) {
		return nil
	}
	return m
}

// Offset is where value, a value Each passed from doc, starts in doc.
func Offset(doc, value []byte) int { return cap(doc) - cap(value) }

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

// skipValue returns the index just past the JSON value that starts at i,
// in valid JSON.
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
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i // the end of a number or literal
			}
		}
		i++
	}
	return i
}
