package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// MaxExact is the largest integer SnowLuma reads exactly: it reads numbers
// as JavaScript does, whose integers are exact up to 2^53-1.
const MaxExact = 1<<53 - 1

// kind is how one top-level param (or each element of an array param) is
// read beyond its JSON type: SnowLuma's coercers read a numeric string for
// an integer, "true" or "false" for a boolean and a number for a string,
// and models often quote an id. The server reads those spellings too, more
// strictly than JavaScript's Number() (no blanks, hex, exponents, signs or
// fractions: those are more likely a mistake than an id), and sends the
// value they name, so every later stage and SnowLuma see one spelling.
type kind struct {
	integer, boolean, str bool
	minus                 bool // a negative integer may be spelled (no minimum, or one below 0)
	each                  bool // the param is an array of such values
}

// spellings maps each top-level property of an object schema to its kind.
func spellings(s *jsonschema.Schema) map[string]kind {
	out := map[string]kind{}
	for name, p := range s.Properties {
		if p == nil {
			continue
		}
		k, each := p, false
		if typeOf(p) == "array" && p.Items != nil {
			k, each = p.Items, true
		}
		switch typeOf(k) {
		case "integer":
			out[name] = kind{integer: true, minus: k.Minimum == nil || *k.Minimum < 0, each: each}
		case "boolean":
			out[name] = kind{boolean: true, each: each}
		case "string":
			out[name] = kind{str: true, each: each}
		}
	}
	return out
}

// typeOf is a schema's single type, or "" when it names none or several.
func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		return s.Type
	}
	if len(s.Types) == 1 {
		return s.Types[0]
	}
	return ""
}

// Normalize rewrites the spellings described at kind in the top-level
// params of doc into the values they name, and refuses a string given for
// an integer or boolean param that is none of them, naming the param and
// the accepted form. Everything else stays as written, byte for byte, in
// its order; doc comes back unchanged when nothing needed rewriting.
func (v *Validator) Normalize(doc json.RawMessage, prefix string) (json.RawMessage, error) {
	if len(v.spell) == 0 || len(bytes.TrimSpace(doc)) == 0 {
		return doc, nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return doc, nil // not an object: Validate says what is wrong
	}
	var out bytes.Buffer
	out.WriteByte('{')
	changed := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return doc, nil
		}
		name, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return doc, nil
		}
		if k, ok := v.spell[name]; ok {
			fixed, err := k.read(raw, prefix+"."+name)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(fixed, raw) {
				changed = true
				raw = fixed
			}
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		key, _ := json.Marshal(name)
		out.Write(key)
		out.WriteByte(':')
		out.Write(raw)
	}
	if !changed {
		return doc, nil
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// read normalizes one param's value (each element of an array param).
func (k kind) read(raw json.RawMessage, path string) (json.RawMessage, error) {
	if !k.each {
		return k.one(raw, path)
	}
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return raw, nil // not an array: Validate says so
	}
	changed := false
	for i, e := range elems {
		fixed, err := k.one(e, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(fixed, e) {
			elems[i], changed = fixed, true
		}
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(elems)
}

var (
	digits       = regexp.MustCompile(`^[0-9]+$`)
	signedDigits = regexp.MustCompile(`^-?[0-9]+$`)
)

// one normalizes a single value.
func (k kind) one(raw json.RawMessage, path string) (json.RawMessage, error) {
	text := bytes.TrimSpace(raw)
	if len(text) == 0 {
		return raw, nil
	}
	quoted := text[0] == '"'
	switch {
	case k.integer && quoted:
		var s string
		if json.Unmarshal(text, &s) != nil {
			return raw, nil
		}
		form, re := "a string of its decimal digits", digits
		if k.minus {
			form, re = "a string of its decimal digits, a minus first if negative", signedDigits
		}
		return integerFrom(s, re.MatchString(s), form, path)
	case k.integer:
		// 20001.0 and 2.0001e4 are the integer 20001 to JSON Schema and to
		// SnowLuma; say it one way.
		f, err := strconv.ParseFloat(string(text), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > MaxExact {
			return raw, nil
		}
		return json.RawMessage(strconv.FormatInt(int64(f), 10)), nil
	case k.boolean && quoted:
		var s string
		if json.Unmarshal(text, &s) != nil {
			return raw, nil
		}
		switch s {
		case "true", "false":
			return json.RawMessage(s), nil
		}
		return nil, fmt.Errorf("%s: want true or false (or the string \"true\" or \"false\"), got the string %s", path, fault.Quote(s))
	case k.str && !quoted && signedDigits.Match(text):
		// A number stands for its digits, as SnowLuma's String() reads it,
		// while it is exact there.
		if n, err := strconv.ParseInt(string(text), 10, 64); err == nil && n >= -MaxExact && n <= MaxExact {
			return json.RawMessage(`"` + string(text) + `"`), nil
		}
	}
	return raw, nil
}

// integerFrom reads a quoted integer s that matched its form (ok).
func integerFrom(s string, ok bool, form, path string) (json.RawMessage, error) {
	if !ok {
		return nil, fmt.Errorf("%s: want an integer, or %s (such as \"20001\"); the string %s is neither", path, form, fault.Quote(s))
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > MaxExact || n < -MaxExact {
		return nil, fmt.Errorf("%s: the string %s names an integer beyond 2^53-1, which SnowLuma cannot read exactly", path, fault.Quote(s))
	}
	return json.RawMessage(strconv.FormatInt(n, 10)), nil
}

// QuotedIntegers reports whether Normalize reads any top-level param (or
// element of one) from a string of digits: what get_action tells a model
// once per action.
func (v *Validator) QuotedIntegers() bool {
	for _, k := range v.spell {
		if k.integer {
			return true
		}
	}
	return false
}
