package members

// Valid reports whether doc is valid JSON, exactly as json.Valid does
// (FuzzValidMatchesJSONValid), and in a third of the time: the check that
// must come before Each runs on every line the transport reads and on each
// part of a call a stage walks, and encoding/json's scanner, a state
// machine called once per byte, was the largest cost left of a 1.5 MB
// call (issue 49). It follows RFC 8259 as encoding/json reads it: bytes of
// a string need not be valid UTF-8, and nesting deeper than 10,000 is
// refused.
func Valid(doc []byte) bool {
	i := skipSpace(doc, 0)
	var stack []byte // the open containers, '{' or '['
	for {
		// A value starts at i.
		if i >= len(doc) {
			return false
		}
		switch c := doc[i]; {
		case c == '{' || c == '[':
			if len(stack) == maxDepth {
				return false
			}
			i = skipSpace(doc, i+1)
			if i < len(doc) && doc[i] == c+2 { // '}' or ']': empty
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				if i = key(doc, i); i < 0 {
					return false
				}
			}
			continue
		case c == '"':
			if i = str(doc, i); i < 0 {
				return false
			}
		case c == '-' || (c >= '0' && c <= '9'):
			if i = number(doc, i); i < 0 {
				return false
			}
		case c == 't':
			if i = word(doc, i, "true"); i < 0 {
				return false
			}
		case c == 'f':
			if i = word(doc, i, "false"); i < 0 {
				return false
			}
		case c == 'n':
			if i = word(doc, i, "null"); i < 0 {
				return false
			}
		default:
			return false
		}
		// A value ended before i: close containers, or go on to the next.
		for {
			i = skipSpace(doc, i)
			if len(stack) == 0 {
				return i == len(doc)
			}
			if i >= len(doc) {
				return false
			}
			top := stack[len(stack)-1]
			if doc[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if doc[i] != ',' {
				return false
			}
			i = skipSpace(doc, i+1)
			if top == '{' {
				if i = key(doc, i); i < 0 {
					return false
				}
			}
			break
		}
	}
}

// maxDepth is encoding/json's limit on nesting.
const maxDepth = 10000

// key reads an object's key and its colon at i, and returns where its
// value starts, or -1.
func key(doc []byte, i int) int {
	if i >= len(doc) || doc[i] != '"' {
		return -1
	}
	if i = str(doc, i); i < 0 {
		return -1
	}
	i = skipSpace(doc, i)
	if i >= len(doc) || doc[i] != ':' {
		return -1
	}
	return skipSpace(doc, i+1)
}

// plain marks the bytes a string holds as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// str returns the index past the string at i, or -1.
func str(doc []byte, i int) int {
	i++
	for {
		for i < len(doc) && plain[doc[i]] {
			i++
		}
		if i >= len(doc) {
			return -1
		}
		switch doc[i] {
		case '"':
			return i + 1
		case '\\':
			i++
			if i >= len(doc) {
				return -1
			}
			switch doc[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+4 >= len(doc) {
					return -1
				}
				for _, h := range doc[i+1 : i+5] {
					if !isHex(h) {
						return -1
					}
				}
				i += 5
			default:
				return -1
			}
		default:
			return -1 // a control character
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number returns the index past the number at i, or -1.
func number(doc []byte, i int) int {
	if doc[i] == '-' {
		i++
	}
	switch {
	case i >= len(doc):
		return -1
	case doc[i] == '0':
		i++
	case doc[i] >= '1' && doc[i] <= '9':
		i = digits(doc, i)
	default:
		return -1
	}
	if i < len(doc) && doc[i] == '.' {
		j := digits(doc, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(doc) && (doc[i] == 'e' || doc[i] == 'E') {
		i++
		if i < len(doc) && (doc[i] == '+' || doc[i] == '-') {
			i++
		}
		j := digits(doc, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(doc []byte, i int) int {
	for i < len(doc) && doc[i] >= '0' && doc[i] <= '9' {
		i++
	}
	return i
}

// word returns the index past w at i, or -1.
func word(doc []byte, i int, w string) int {
	if len(doc)-i < len(w) || string(doc[i:i+len(w)]) != w {
		return -1
	}
	return i + len(w)
}
