// Package schema compiles and applies JSON Schemas (draft 2020-12) with a real
// validator, and words its failures so an agent can fix its call: the problem
// names the JSON location and what was expected there.
//
// It uses github.com/google/jsonschema-go, the validator the MCP SDK itself
// depends on: it adds nothing to the binary and almost nothing to start-up
// (a heavier validator cost 12 ms of package initialisation, a third of the
// cold-start budget).
package schema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Validator checks JSON documents against one resolved schema. It is safe for
// concurrent use.
type Validator struct {
	rs    *jsonschema.Resolved
	spell map[string]kind // see Normalize
	top   *top            // see complete
	near  Near            // see Suggest
	free  map[string]bool // see freeForms
}

// Compile resolves a schema document.
func Compile(doc json.RawMessage) (*Validator, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(doc, &s); err != nil {
		return nil, fmt.Errorf("schema is not valid: %w", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &Validator{rs: rs, spell: spellings(&s), top: topOf(&s, doc), free: freeForms(&s)}, nil
}

// MustCompile compiles a schema that is part of the program; a failure is a
// programming error caught by tests.
func MustCompile(doc string) *Validator {
	v, err := Compile(json.RawMessage(doc))
	if err != nil {
		panic(err)
	}
	return v
}

// Validate checks doc. The error is prefixed with prefix (say "params") and
// the JSON path of the offending value. For an object it names every
// unexpected and every missing top-level property, and the first problem
// inside a value beside them, so one refusal says all a caller must fix.
func (v *Validator) Validate(doc json.RawMessage, prefix string) error {
	inst, err := v.instance(doc)
	if err != nil {
		return fmt.Errorf("%s: not valid JSON", prefix)
	}
	if err := v.rs.Validate(inst); err != nil {
		if all := v.complete(inst, prefix); all != "" {
			return fmt.Errorf("%s", all)
		}
		return fmt.Errorf("%s", reword(err.Error(), prefix))
	}
	return nil
}

// reword turns the library's nested "validating /properties/a/items/0: ..."
// chain into "prefix.a[0]: ...".
func reword(msg, prefix string) string {
	path := prefix
	msg = strings.TrimPrefix(msg, "validating root: ")
	for strings.HasPrefix(msg, "validating /") {
		loc, rest, ok := strings.Cut(msg[len("validating "):], ": ")
		if !ok {
			break
		}
		path = prefix + jsonPath(loc)
		msg = rest
	}
	switch {
	case strings.HasPrefix(msg, "not: "):
		// The library names the anonymous schema it matched; in this
		// catalog a 'not' rule always excludes specific values, such as 0
		// for message IDs.
		msg = "this value is not allowed here"
	case strings.HasPrefix(msg, "minimum: "), strings.HasPrefix(msg, "maximum: "):
		msg = strings.SplitN(msg, ": ", 2)[0] + " " + bound(msg)
	case strings.HasPrefix(msg, "type: "):
		// The library prints the value itself (a null as
		// "<invalid reflect.Value>", a long string whole); name the types.
		if m := typeMismatch.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("want %s, got %s", strings.ReplaceAll(m[2], `"`, ""), m[1])
		}
	case strings.HasPrefix(msg, "maxLength: "), strings.HasPrefix(msg, "minLength: "):
		// The library quotes the whole string first, so a long one pushed
		// the limit past the cap; name the lengths, never the value.
		if m := lengthBound.FindStringSubmatch(msg); m != nil {
			word := "most"
			if m[2] == "fewer" {
				word = "least"
			}
			msg = fmt.Sprintf("%s violated: the string has %s characters and must have at %s %s", strings.SplitN(msg, ":", 2)[0], m[1], word, m[3])
		}
	case strings.HasPrefix(msg, "enum: "):
		if _, allowed, ok := strings.Cut(msg, "does not equal any of: "); ok {
			msg = "must be one of " + allowed
		}
	}
	return path + ": " + capped(msg)
}

var (
	typeMismatch = regexp.MustCompile(`has type "([a-z]+)", want (.+)$`)
	lengthBound  = regexp.MustCompile(`contains (\d+) Unicode code points, (more|fewer) than (\d+)$`)
)

// capped cuts a message that repeats a caller's long value.
func capped(msg string) string {
	if head, cut := fault.Prefix(msg, 300); cut {
		return head + "…"
	}
	return msg
}

// jsonPath converts a schema location (/properties/a/items/0) into a value
// path (.a[0]).
func jsonPath(loc string) string {
	var b strings.Builder
	parts := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties", "additionalProperties", "patternProperties":
			if i+1 < len(parts) {
				b.WriteString("." + parts[i+1])
				i++
			}
		case "items", "prefixItems":
			if i+1 < len(parts) {
				b.WriteString("[" + parts[i+1] + "]")
				i++
			} else {
				b.WriteString("[]")
			}
		}
	}
	return b.String()
}

// bound rewrites "0/1 is less than 1.000000" as "is 1 or more" style text.
func bound(msg string) string {
	_, rest, _ := strings.Cut(msg, ": ")
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return rest
	}
	limit := strings.TrimRight(strings.TrimRight(fields[len(fields)-1], "0"), ".")
	if strings.Contains(rest, "less than") {
		return "violated: the value must be at least " + limit
	}
	return "violated: the value must be at most " + limit
}
