package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/snowluma/snowluma-mcp/internal/members"
)

// Decode decodes doc, a JSON document that passed the schema of v's type
// (valid JSON), into v, a pointer, as json.Unmarshal does, except that a
// top-level Object field is given its member's bytes (aliasing doc) without
// encoding/json reading them: the member is written as null in what the
// decoder reads. An Object is a free-form value passed on as written, and
// it can be most of a call (issue 49: a tool's params of 100,000 keys,
// which json.Unmarshal checked, skipped and copied whole). Every key
// encoding/json would match to the field (it ignores case) is set aside,
// and the last one given wins, as it does there.
func Decode(doc []byte, v any) error {
	rv := reflect.ValueOf(v)
	aside := objectFields(rv.Type())
	if len(aside) == 0 {
		return json.Unmarshal(doc, v)
	}
	type span struct {
		field      int
		start, end int
	}
	var spans []span
	members.Each(doc, func(k, val []byte) bool {
		for i, f := range aside {
			if bytes.EqualFold(k, []byte(f.name)) {
				start := members.Offset(doc, val)
				spans = append(spans, span{i, start, start + len(val)})
			}
		}
		return true
	})
	if len(spans) == 0 {
		return json.Unmarshal(doc, v)
	}
	reduced := make([]byte, 0, 256)
	at := 0
	for _, sp := range spans {
		reduced = append(append(reduced, doc[at:sp.start]...), "null"...)
		at = sp.end
	}
	reduced = append(reduced, doc[at:]...)
	if err := json.Unmarshal(reduced, v); err != nil {
		return err
	}
	st := rv.Elem()
	for _, sp := range spans { // in order: the last of a field wins
		st.Field(aside[sp.field].index).Set(reflect.ValueOf(Object(doc[sp.start:sp.end])))
	}
	return nil
}

// objectField is a top-level Object field of a struct and the JSON name
// encoding/json reads it from.
type objectField struct {
	name  string
	index int
}

var objectFieldsOf sync.Map // reflect.Type (a pointer to a struct) -> []objectField

// objectFields lists the Object fields of the struct t points to; none for
// any other type, or when two of the struct's JSON names are equal but for
// case (which encoding/json tells apart by its own rules).
func objectFields(t reflect.Type) []objectField {
	if f, ok := objectFieldsOf.Load(t); ok {
		return f.([]objectField)
	}
	var out []objectField
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		st := t.Elem()
		seen := map[string]bool{}
		clash := false
		for i := range st.NumField() {
			sf := st.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" || !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if sf.Anonymous {
				clash = true // an embedded struct's fields are promoted: not worth reading here
			}
			folded := strings.ToLower(name)
			clash = clash || seen[folded]
			seen[folded] = true
			if sf.Type == reflect.TypeFor[Object]() {
				out = append(out, objectField{name: name, index: i})
			}
		}
		if clash {
			out = nil
		}
	}
	objectFieldsOf.Store(t, out)
	return out
}
