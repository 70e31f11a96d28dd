package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
)

// ResultFor derives the JSON Schema of a tool's result from the Go type the
// handler hands out, so the schema a client validates structuredContent
// against is the value's own shape and cannot drift from it. It reads the
// same tags as For, and differs where a result differs from arguments:
// what Go may encode as null admits null (the result itself, for a tool
// error's payload; a nil pointer, slice or map), a json.RawMessage or an
// interface is any JSON, a map is an object of its values, and a field is
// required unless it is omitempty or omitzero. A type that encodes itself
// has no shape reflection can see: its field says its JSON types in a
// schema tag (`schema:"type=integer|null"`), or the type is refused.
func ResultFor[T any]() (json.RawMessage, error) {
	t := reflect.TypeFor[T]()
	if doc, ok := resultDocs.Load(t); ok {
		return doc.(json.RawMessage), nil
	}
	s, err := deriveResult(t)
	if err != nil {
		return nil, fmt.Errorf("result schema for %s: %w", t, err)
	}
	doc, err := json.Marshal(nullable(s))
	if err == nil {
		resultDocs.Store(t, json.RawMessage(doc))
	}
	return doc, err
}

// resultDocs holds each result type's schema once per process: it is a
// function of the type alone, and every server a process builds (a test,
// a benchmark, docgen) declares the same tools. Callers only read it.
var resultDocs sync.Map // reflect.Type → json.RawMessage

// MustResultFor is ResultFor for result types that are part of the
// program; a failure is a programming error that every test run catches.
func MustResultFor[T any]() json.RawMessage {
	doc, err := ResultFor[T]()
	if err != nil {
		panic(err)
	}
	return doc
}

var (
	rawType  = reflect.TypeFor[json.RawMessage]()
	timeType = reflect.TypeFor[time.Time]()
)

// deriveResult builds the schema of a result type t.
func deriveResult(t reflect.Type) (map[string]any, error) {
	switch {
	case t == rawType || t == objectType || t.Kind() == reflect.Interface:
		return map[string]any{}, nil
	case t == intType:
		return map[string]any{"type": "integer"}, nil
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}, nil
	case t.Kind() == reflect.Pointer:
		s, err := deriveResult(t.Elem())
		return nullable(s), err
	case encodesItself(t):
		return nil, fmt.Errorf("type %s encodes itself: give its field a plainer type", t)
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return nullable(map[string]any{"type": "string"}), nil // base64, as encoding/json writes it
	case t.Kind() == reflect.Slice, t.Kind() == reflect.Array:
		items, err := deriveResult(t.Elem())
		if err != nil {
			return nil, err
		}
		s := map[string]any{"type": "array", "items": items}
		if t.Kind() == reflect.Slice {
			s = nullable(s)
		}
		return s, nil
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
		values, err := deriveResult(t.Elem())
		if err != nil {
			return nil, err
		}
		s := map[string]any{"type": "object"}
		if len(values) > 0 { // any value at all is what an object allows anyway
			s["additionalProperties"] = values
		}
		return nullable(s), nil
	case t.Kind() == reflect.Struct:
		return deriveResultStruct(t)
	}
	return derive(t)
}

func deriveResultStruct(t reflect.Type) (map[string]any, error) {
	props := map[string]any{}
	var required []string
	if err := addFields(t, props, &required, true); err != nil {
		return nil, err
	}
	// No additionalProperties: the payload is a value of this very type,
	// so the word would only cost every tools/list its bytes.
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s, nil
}

// addFields adds the properties t's fields encode as, following an
// embedded struct's fields as encoding/json promotes them: an embedded
// pointer that is nil writes none of them, so they are required only
// when every struct on the way is a value (always).
func addFields(t reflect.Type, props map[string]any, required *[]string, always bool) (err error) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			inner, viaPointer := f.Type, false
			if inner.Kind() == reflect.Pointer {
				inner, viaPointer = inner.Elem(), true
			}
			if inner.Kind() == reflect.Struct {
				if err := addFields(inner, props, required, always && !viaPointer); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		var prop map[string]any
		if explicit := typeTag(f.Tag.Get("schema")); explicit != "" {
			// The wire needs more than the Go type says (a field that
			// encodes itself): the tag gives its JSON types.
			prop = map[string]any{"type": strings.Split(explicit, "|")}
		} else if prop, err = deriveResult(f.Type); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if k := f.Type.Kind(); strings.Contains(opts, "omitempty") && (k == reflect.Pointer || k == reflect.Slice || k == reflect.Map) {
			notNull(prop) // left out when nil, so never null
		}
		if d, ok := f.Tag.Lookup("jsonschema"); ok && d != "" {
			prop["description"] = d
		}
		if err := apply(prop, withoutType(f.Tag.Get("schema"))); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		props[name] = prop
		if always && !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			*required = append(*required, name)
		}
	}
	return nil
}

// notNull undoes nullable.
func notNull(s map[string]any) {
	if ty, ok := s["type"].([]string); ok && len(ty) == 2 && ty[1] == "null" {
		s["type"] = ty[0]
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 && enum[len(enum)-1] == nil {
		s["enum"] = enum[:len(enum)-1]
	}
}

// typeTag is the value of a result field's "type=a|b" schema tag key: the
// JSON types of a field whose Go type encodes itself.
func typeTag(tag string) string {
	for _, pair := range strings.Split(tag, ",") {
		if v, ok := strings.CutPrefix(pair, "type="); ok {
			return v
		}
	}
	return ""
}

// withoutType is a schema tag without its type key, which apply does not
// know (arguments never need it).
func withoutType(tag string) string {
	var keep []string
	for _, pair := range strings.Split(tag, ",") {
		if pair != "" && !strings.HasPrefix(pair, "type=") {
			keep = append(keep, pair)
		}
	}
	return strings.Join(keep, ",")
}

// encodesItself says whether t (or a pointer to it) has its own JSON
// encoding, whose shape no reflection can know.
func encodesItself(t reflect.Type) bool {
	m := reflect.TypeFor[json.Marshaler]()
	return t.Implements(m) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(m))
}

// nullable makes s admit null too; a schema without a type or enum (any
// JSON) already does.
func nullable(s map[string]any) map[string]any {
	if ty, ok := s["type"].(string); ok {
		s["type"] = []string{ty, "null"}
	}
	if enum, ok := s["enum"].([]string); ok {
		vals := make([]any, 0, len(enum)+1)
		for _, v := range enum {
			vals = append(vals, v)
		}
		s["enum"] = append(vals, nil)
	}
	return s
}
