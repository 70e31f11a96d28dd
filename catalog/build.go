package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/payload"
)

// source is one action's authored file: an Action as the catalog holds
// it, less the input schema. Its facts (name, flags, params) come from
// SnowLuma; its prose and result contract are ours. The input schema is
// not authored: Build derives it from the params so the two cannot
// disagree, and a file that gives one is refused.
type source struct {
	Action
	InputSchema derived `json:"inputSchema"`
}

// derived is a field Build writes, refused in an authored file.
type derived struct{}

// UnmarshalJSON refuses the field.
func (derived) UnmarshalJSON([]byte) error {
	return errors.New("inputSchema is derived from params, not authored")
}

type meta struct {
	Version    string `json:"version"`
	Categories []struct {
		Name string `json:"name"`
		Slug string `json:"slug"`
	} `json:"categories"`
}

// Build reads the authored sources in src (catalog.json plus one
// <category-slug>/<name>.json per action) and returns the generated catalog
// bytes. It refuses sources that are misplaced or malformed, so a mistake in
// authoring fails `go generate` rather than shipping.
func Build(src fs.FS) ([]byte, error) {
	var m meta
	if err := readJSON(src, "catalog.json", &m); err != nil {
		return nil, err
	}
	slugOf := map[string]string{}
	doc := Document{Version: m.Version, Actions: []*Action{}}
	for _, c := range m.Categories {
		slugOf[c.Name] = c.Slug
	}
	files, err := fs.Glob(src, "*/*.json")
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for _, file := range files {
		var s source
		if err := readJSON(src, file, &s); err != nil {
			return nil, err
		}
		want := path.Join(slugOf[s.Category], strings.TrimPrefix(s.Name, ".")+".json")
		if slugOf[s.Category] == "" || file != want {
			return nil, fmt.Errorf("%s: action %q of category %q belongs in %s", file, s.Name, s.Category, want)
		}
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			if prev, dup := seen[n]; dup {
				return nil, fmt.Errorf("%s: name %q already used by %s", file, n, prev)
			}
			seen[n] = file
		}
		a, err := s.action()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if err := s.Delivers.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		doc.Actions = append(doc.Actions, a)
	}
	if err := checkCopies(doc.Actions); err != nil {
		return nil, err
	}
	sort.Slice(doc.Actions, func(i, j int) bool { return orderKey(doc.Actions[i].Name) < orderKey(doc.Actions[j].Name) })
	for _, c := range m.Categories {
		n := 0
		for _, a := range doc.Actions {
			if a.Category == c.Name {
				n++
			}
		}
		doc.Categories = append(doc.Categories, Category{Category: c.Name, Count: n})
	}
	return encode(doc)
}

// orderKey gives SnowLuma's catalog order: names compared bytewise with the
// underscore ranked below every other character, which puts "_x" before ".x"
// before letters and "a_b" before "ab".
func orderKey(name string) string { return strings.ReplaceAll(name, "_", " ") }

func (s *source) action() (*Action, error) {
	if s.Aliases == nil {
		s.Aliases = []string{}
	}
	if s.Invariants == nil {
		s.Invariants = []string{}
	}
	if s.Examples == nil {
		s.Examples = []Example{}
	}
	if s.Params == nil {
		s.Params = []Param{}
	}
	in, err := inputSchema(s.Params)
	if err != nil {
		return nil, err
	}
	declared := map[string]bool{}
	for _, p := range s.Params {
		declared[p.Name] = true
	}
	for _, p := range s.RawParams {
		if declared[p.Name] || p.Required {
			return nil, fmt.Errorf("raw param %s: a raw-read key is optional and not declared among params", p.Name)
		}
		declared[p.Name] = true
		if _, err := inputSchema([]Param{p}); err != nil {
			return nil, err
		}
	}
	returns := s.ReturnsSchema
	if len(bytes.TrimSpace(returns)) == 0 {
		returns = json.RawMessage("null")
	}
	a := s.Action
	a.InputSchema, a.ReturnsSchema = in, returns
	return &a, nil
}

// inputSchema derives an action's input schema from its params: each
// property is the param's schema plus its description, default and role.
func inputSchema(params []Param) (json.RawMessage, error) {
	type object struct {
		Type                 string                     `json:"type"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required,omitempty"`
		AdditionalProperties bool                       `json:"additionalProperties"`
	}
	o := object{Type: "object", Properties: map[string]json.RawMessage{}, AdditionalProperties: true}
	for _, p := range params {
		prop := map[string]json.RawMessage{}
		if err := json.Unmarshal(p.Schema, &prop); err != nil {
			return nil, fmt.Errorf("param %s: schema: %w", p.Name, err)
		}
		if p.Description != "" {
			prop["description"], _ = payload.Encode(p.Description) // "<stream_id>" stays six bytes shorter than "\u003c…"
		}
		if len(p.Default) > 0 {
			prop["default"] = p.Default
		}
		if p.Role != "" {
			prop["x-role"], _ = payload.Encode(p.Role)
		}
		raw, err := payload.Encode(prop)
		if err != nil {
			return nil, err
		}
		o.Properties[p.Name] = raw
		if p.Required {
			o.Required = append(o.Required, p.Name)
		}
	}
	return payload.Encode(o)
}

func readJSON(src fs.FS, name string, v any) error {
	data, err := fs.ReadFile(src, name)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func encode(doc Document) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
