package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// For derives the JSON Schema of a tool's arguments from the Go struct they
// decode into, so one type is both the schema clients see and the value
// handlers read. It follows the SDK's jsonschema-go For (a test holds the
// two to the same output) with two differences that suit arguments: no
// field admits an explicit null (leaving a field out is how a caller omits
// it), and constraints come from `schema:"…"` tags. Descriptions come from
// `jsonschema:"…"` tags, as in the SDK; a field without omitempty is
// required. Schema tags are comma-separated key=value pairs: minimum,
// maximum, minLength, maxLength, minItems, maxItems, enum (values split by
// |) and default; a key prefixed with "items." applies to an array's items.
//
// It is written here rather than wrapping the library because every start
// derives the schemas, and the library's first use (reflection over its own
// large Schema type) costs a millisecond there.
func For[T any]() (json.RawMessage, error) {
	t := reflect.TypeFor[T]()
	if doc, ok := argumentDocs.Load(t); ok {
		return doc.(json.RawMessage), nil
	}
	s, err := derive(t)
	if err != nil {
		return nil, fmt.Errorf("schema for %s: %w", t, err)
	}
	doc, err := json.Marshal(s)
	if err == nil {
		argumentDocs.Store(t, json.RawMessage(doc))
	}
	return doc, err
}

// argumentDocs holds each argument type's schema once per process, as
// resultDocs does results'.
var argumentDocs sync.Map // reflect.Type → json.RawMessage

// MustFor is For for argument types that are part of the program; a failure
// is a programming error that every test run catches.
func MustFor[T any]() json.RawMessage {
	doc, err := For[T]()
	if err != nil {
		panic(err)
	}
	return doc
}

var (
	intType    = reflect.TypeFor[Int]()
	objectType = reflect.TypeFor[Object]()
)

// derive builds the schema of t as a JSON-ready map.
func derive(t reflect.Type) (map[string]any, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == intType:
		return map[string]any{"type": "integer"}, nil
	case t == objectType:
		return map[string]any{"type": "object"}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.Slice, reflect.Array:
		items, err := derive(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Struct:
		return deriveStruct(t)
	}
	return nil, fmt.Errorf("type %s has no argument schema", t)
}

func deriveStruct(t reflect.Type) (map[string]any, error) {
	props := map[string]any{}
	var required []string
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		prop, err := derive(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		if d, ok := f.Tag.Lookup("jsonschema"); ok && d != "" {
			prop["description"] = d
		}
		if err := apply(prop, f.Tag.Get("schema")); err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		props[name] = prop
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			required = append(required, name)
		}
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s, nil
}

// apply sets the constraints of one schema tag.
func apply(s map[string]any, tag string) error {
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
			items, ok := s["items"].(map[string]any)
			if !ok {
				return fmt.Errorf("schema tag %q: not an array", pair)
			}
			target, key = items, rest
		}
		if err := set(target, key, val); err != nil {
			return fmt.Errorf("schema tag %q: %w", pair, err)
		}
	}
	return nil
}

func set(s map[string]any, key, val string) error {
	switch key {
	case "minimum", "maximum":
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return err
		}
		s[key] = f
	case "minLength", "maxLength", "minItems", "maxItems":
		n, err := strconv.Atoi(val)
		if err != nil {
			return err
		}
		s[key] = n
	case "enum":
		// An enum says everything a type would; the catalog's style omits it.
		delete(s, "type")
		s["enum"] = strings.Split(val, "|")
	case "default":
		raw := json.RawMessage(val)
		if !json.Valid(raw) {
			raw, _ = json.Marshal(val)
		}
		s["default"] = raw
	default:
		return fmt.Errorf("unknown key %q", key)
	}
	return nil
}
