package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Near returns the names among names that key was likely meant to be,
// nearest first; Validate offers them as a did-you-mean for an unexpected
// property.
type Near func(key string, names []string) []string

// top is what a schema requires of a document's top level: the validator
// stops at its first problem, so for an object it is asked about the
// rest itself, and a model fixes everything in one round.
type top struct {
	names    []string // declared properties, sorted
	declared map[string]bool
	required []string
	closed   bool // additionalProperties: false

	// lenient is the schema without the top-level required and
	// additionalProperties rules, compiled at the first refusal: it finds
	// the first problem inside a value beside the top-level ones.
	once    sync.Once
	doc     json.RawMessage
	lenient *jsonschema.Resolved
}

// topOf reads s's top-level rules; nil when it has none to complete.
func topOf(s *jsonschema.Schema, doc json.RawMessage) *top {
	closed := s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
	if !closed {
		if raw, err := json.Marshal(s.AdditionalProperties); err == nil && string(raw) == "false" {
			closed = true
		}
	}
	if len(s.Required) == 0 && !closed {
		return nil
	}
	t := &top{declared: map[string]bool{}, required: s.Required, closed: closed, doc: doc}
	for name := range s.Properties {
		t.names = append(t.names, name)
		t.declared[name] = true
	}
	sort.Strings(t.names)
	return t
}

// maxNamed is how many unexpected properties a refusal names; it counts
// the rest, so its size does not grow with the request's.
const maxNamed = 3

// problems lists what is wrong with inst's top level (an object): the
// unexpected properties, each with the names it was likely meant to be,
// and the missing required ones; "" when neither.
func (t *top) problems(inst map[string]any, near Near) string {
	var parts []string
	if t.closed {
		var extra []string
		for k := range inst {
			if !t.declared[k] {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		if len(extra) > 0 {
			// A request may carry any number of keys: name a few, count
			// the rest, and look for what only those few meant.
			more := len(extra) - maxNamed
			if more > 0 {
				extra = extra[:maxNamed]
			}
			part := "unexpected additional properties " + quoted(extra)
			if more > 0 {
				part += fmt.Sprintf(" and %d more", more)
			}
			var means []string
			for _, k := range extra {
				if near == nil {
					break
				}
				if n := near(k, t.names); len(n) > 0 {
					means = append(means, strings.Join(n, " or ")+" in place of "+fault.Quote(k))
				}
			}
			if len(means) > 0 {
				part += " (did you mean " + strings.Join(means, ", ") + "?)"
			}
			parts = append(parts, part)
		}
	}
	var missing []string
	for _, r := range t.required {
		if _, ok := inst[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		parts = append(parts, "required: missing properties: "+quoted(missing))
	}
	return strings.Join(parts, "; ")
}

// valueProblem is the first problem inside a value, as the lenient schema
// sees it; "" when there is none.
func (t *top) valueProblem(inst any, prefix string) string {
	t.once.Do(func() {
		var s jsonschema.Schema
		if json.Unmarshal(t.doc, &s) != nil {
			return
		}
		s.Required, s.AdditionalProperties = nil, nil
		t.lenient, _ = s.Resolve(nil)
	})
	if t.lenient == nil {
		return ""
	}
	if err := t.lenient.Validate(inst); err != nil {
		return reword(err.Error(), prefix)
	}
	return ""
}

// quoted writes names as the validator's own messages do: ["a" "b"] in
// JSON string form, so a long or odd key stays one readable item.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fault.Quote(n)
	}
	return "[" + strings.Join(q, " ") + "]"
}

// complete words a refusal of inst (already known invalid) so it names
// every top-level problem and the first problem inside a value; "" when
// inst is not an object or its top level is in order (the validator's
// own message then says it all).
func (v *Validator) complete(inst any, prefix string) string {
	obj, ok := inst.(map[string]any)
	if v.top == nil || !ok {
		return ""
	}
	head := v.top.problems(obj, v.near)
	if head == "" {
		return ""
	}
	msg := prefix + ": " + head
	if inner := v.top.valueProblem(inst, prefix); inner != "" {
		msg += "; " + inner
	}
	return capped(msg)
}

// Suggest makes v's refusals offer near's names for an unexpected
// property; it returns v. Call it before v is shared.
func (v *Validator) Suggest(near Near) *Validator {
	v.near = near
	return v
}
