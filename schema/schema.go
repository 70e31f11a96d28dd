// Package schema compiles and applies JSON Schemas (draft 2020-12) with a real
// validator, and words its failures so an agent can fix its call: each
// problem names the JSON location and what was expected there.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Validator checks JSON documents against one compiled schema. It is safe for
// concurrent use.
type Validator struct{ s *jsonschema.Schema }

// Compile compiles a schema document.
func Compile(doc json.RawMessage) (*Validator, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///schema.json", v); err != nil {
		return nil, err
	}
	s, err := c.Compile("mem:///schema.json")
	if err != nil {
		return nil, err
	}
	return &Validator{s: s}, nil
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

// Validate checks doc. The error lists every problem, one per line, each
// prefixed with prefix (say "params") and the JSON path.
func (v *Validator) Validate(doc json.RawMessage, prefix string) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("%s: not valid JSON", prefix)
	}
	err = v.s.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return fmt.Errorf("%s: %v", prefix, err)
	}
	var problems []string
	collect(ve, prefix, &problems)
	sort.Strings(problems)
	return fmt.Errorf("%s", strings.Join(dedupe(problems), "; "))
}

var printer = message.NewPrinter(language.English)

// collect gathers the leaf problems: those are the specific ones ("must be
// >= 1"), while inner nodes only say that something below failed.
func collect(e *jsonschema.ValidationError, prefix string, out *[]string) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, prefix, out)
		}
		return
	}
	loc := prefix
	for _, part := range e.InstanceLocation {
		loc += "." + part
	}
	text := e.ErrorKind.LocalizedString(printer)
	if _, isNot := e.ErrorKind.(*kind.Not); isNot {
		// The library only says "'not' failed"; in this catalog a 'not' rule
		// always excludes specific values, such as 0 for message IDs.
		text = "this value is not allowed here"
	}
	*out = append(*out, loc+": "+text)
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
