package schema

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/snowluma/snowluma-mcp/internal/members"
)

// annotations are the keywords that say something about a value without
// constraining it.
var annotations = map[string]bool{
	"description": true, "title": true, "default": true, "examples": true,
	"$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true,
}

// freeForms lists the top-level properties whose schema is a bare
// {"type":"object"} (annotations aside): any object passes, so what is
// inside one need not be decoded to check it. A tool's params is one: a
// request may carry 100,000 keys there, each of which a full decode would
// put in a map before the params stage refused them (issue 49).
func freeForms(s *jsonschema.Schema) map[string]bool {
	out := map[string]bool{}
	if !only(s, rootKeywords) {
		return out // a keyword over the whole document might look inside
	}
	for name, p := range s.Properties {
		if p == nil || typeOf(p) != "object" {
			continue
		}
		if only(p, map[string]bool{"type": true}) {
			out[name] = true
		}
	}
	return out
}

// rootKeywords are the keywords of a root schema that look at a property's
// value only through its own subschema.
var rootKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"$schema": true, "$id": true,
}

// only reports whether s uses no keyword but those allowed and annotations.
func only(s *jsonschema.Schema, allowed map[string]bool) bool {
	raw, err := json.Marshal(s)
	if err != nil {
		return false
	}
	var kw map[string]json.RawMessage
	if json.Unmarshal(raw, &kw) != nil {
		return false
	}
	for k := range kw {
		if !allowed[k] && !annotations[k] {
			return false
		}
	}
	return true
}

// errNotJSON is instance's failure on a document that is not JSON; Validate
// words it.
var errNotJSON = errors.New("not valid JSON")

// instance decodes doc for validation. A top-level object's free-form
// properties that hold an object are decoded as {}: the schema accepts any
// object there, so the result is the same, and the cost of a huge one is
// one scan instead of a map of its every key.
func (v *Validator) instance(doc json.RawMessage) (any, error) {
	var inst any
	t := bytes.TrimSpace(doc)
	if len(v.free) == 0 || len(t) == 0 || t[0] != '{' {
		return inst, json.Unmarshal(doc, &inst)
	}
	// One check and one scan of the members: a decode into a map of raw
	// members would scan each value twice more and copy it.
	if !members.Valid(t) {
		return nil, errNotJSON
	}
	top := members.Map(t)
	obj := make(map[string]any, len(top))
	for k, raw := range top {
		if r := bytes.TrimSpace(raw); v.free[k] && len(r) > 0 && r[0] == '{' {
			obj[k] = map[string]any{}
			continue
		}
		var val any
		if err := json.Unmarshal(raw, &val); err != nil {
			return nil, err
		}
		obj[k] = val
	}
	return obj, nil
}
