package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// For derives the JSON Schema of a tool's arguments from the Go struct they
// decode into, so one type is both the schema clients see and the value
// handlers read. Field descriptions come from `jsonschema:"…"` tags (as in
// the SDK); constraints the library cannot infer come from `schema:"…"` tags,
// comma-separated key=value pairs: minimum, maximum, minLength, maxLength,
// minItems, maxItems, enum (values split by |) and default; a key prefixed
// with "items." applies to the items of an array. Arguments never accept an
// explicit null: an absent field is how a caller leaves one out.
func For[T any]() (json.RawMessage, error) {
	t := reflect.TypeFor[T]()
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[Object](): {Type: "object"},
	}})
	if err != nil {
		return nil, err
	}
	if err := refine(s, t); err != nil {
		return nil, fmt.Errorf("schema for %s: %w", t, err)
	}
	doc, err := json.Marshal(s)
	if err != nil || len(s.Properties) > 0 {
		return doc, err
	}
	// The library drops an empty properties map, but some clients refuse an
	// object schema without one; a tool without arguments keeps it.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, err
	}
	top["properties"] = json.RawMessage("{}")
	return json.Marshal(top)
}

// MustFor is For for argument types that are part of the program; a failure
// is a programming error that every test run catches.
func MustFor[T any]() json.RawMessage {
	doc, err := For[T]()
	if err != nil {
		panic(err)
	}
	return doc
}

// refine applies the schema tags of struct type t to s, recursively.
func refine(s *jsonschema.Schema, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || f.Anonymous {
			continue
		}
		prop := s.Properties[name]
		if prop == nil {
			continue
		}
		notNull(prop)
		if prop.Items != nil {
			notNull(prop.Items)
		}
		if err := apply(prop, f.Tag.Get("schema")); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if err := refine(prop, f.Type); err != nil {
			return err
		}
	}
	return nil
}

// notNull removes the null the library admits for pointers and slices.
func notNull(s *jsonschema.Schema) {
	var kept []string
	for _, t := range s.Types {
		if t != "null" {
			kept = append(kept, t)
		}
	}
	if len(kept) == 1 {
		s.Type, s.Types = kept[0], nil
	} else if len(s.Types) > 0 {
		s.Types = kept
	}
}

// apply sets the constraints of one schema tag.
func apply(s *jsonschema.Schema, tag string) error {
	if tag == "" {
		return nil
	}
	for _, pair := range strings.Split(tag, ",") {
		key, val, ok := strings.Cut(pair, "=")
		if !ok {
			return fmt.Errorf("schema tag %q: want key=value", pair)
		}
		target := s
		if rest, isItem := strings.CutPrefix(key, "items."); isItem {
			if s.Items == nil {
				return fmt.Errorf("schema tag %q: not an array", pair)
			}
			target, key = s.Items, rest
		}
		if err := set(target, key, val); err != nil {
			return fmt.Errorf("schema tag %q: %w", pair, err)
		}
	}
	return nil
}

func set(s *jsonschema.Schema, key, val string) error {
	num := func() (float64, error) { return strconv.ParseFloat(val, 64) }
	count := func() (*int, error) { n, err := strconv.Atoi(val); return &n, err }
	var err error
	switch key {
	case "minimum":
		var f float64
		f, err = num()
		s.Minimum = &f
	case "maximum":
		var f float64
		f, err = num()
		s.Maximum = &f
	case "minLength":
		s.MinLength, err = count()
	case "maxLength":
		s.MaxLength, err = count()
	case "minItems":
		s.MinItems, err = count()
	case "maxItems":
		s.MaxItems, err = count()
	case "enum":
		for _, v := range strings.Split(val, "|") {
			s.Enum = append(s.Enum, v)
		}
		// An enum says everything a type would; the catalog's style omits it.
		s.Type = ""
	case "default":
		raw := json.RawMessage(val)
		if !json.Valid(raw) {
			raw, _ = json.Marshal(val)
		}
		s.Default = raw
	default:
		return fmt.Errorf("unknown key %q", key)
	}
	return err
}
