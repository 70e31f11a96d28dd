package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/payload"
)

// ParamNames lists every top-level key SnowLuma reads for the action: its
// declared params in the catalog's order, then the keys its run reads from
// the untouched params (RawParams). SnowLuma's parser drops every other key
// without a word, so a call that gives one can never do what was meant.
func (a *Action) ParamNames() []string {
	out := make([]string, 0, len(a.Params)+len(a.RawParams))
	for _, p := range a.Params {
		out = append(out, p.Name)
	}
	for _, p := range a.RawParams {
		out = append(out, p.Name)
	}
	return out
}

// extraKeys are keys every action accepts beside what SnowLuma reads:
// none in the released binary (see fake_marker.go for the e2e suite's).
var extraKeys []string

// Reads reports whether SnowLuma reads the top-level key name for the
// action (declared or read raw).
func (a *Action) Reads(name string) bool {
	for _, k := range extraKeys {
		if k == name {
			return true
		}
	}
	for _, p := range a.Params {
		if p.Name == name {
			return true
		}
	}
	for _, p := range a.RawParams {
		if p.Name == name {
			return true
		}
	}
	return false
}

// readsKey is Reads for a key given as bytes, without copying it, and the
// name it matched.
func (a *Action) readsKey(key []byte) (string, bool) {
	for _, k := range extraKeys {
		if k == string(key) {
			return k, true
		}
	}
	for _, p := range a.Params {
		if p.Name == string(key) {
			return p.Name, true
		}
	}
	for _, p := range a.RawParams {
		if p.Name == string(key) {
			return p.Name, true
		}
	}
	return "", false
}

// AcceptedSchema is the input schema the params stage checks a call
// against: InputSchema (SnowLuma's published schema) with the raw-read
// keys added as optional properties, so their types are checked and the
// ids among them read as every other id is (schema.Validator.Normalize).
func (a *Action) AcceptedSchema() (json.RawMessage, error) {
	if len(a.RawParams) == 0 {
		return a.InputSchema, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(a.InputSchema, &top); err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", a.Name, err)
	}
	props := map[string]json.RawMessage{}
	if raw, ok := top["properties"]; ok {
		if err := json.Unmarshal(raw, &props); err != nil {
			return nil, fmt.Errorf("input schema of %s: %w", a.Name, err)
		}
	}
	raw, err := a.RawProperties()
	if err != nil {
		return nil, err
	}
	var extra map[string]json.RawMessage
	if err := json.Unmarshal(raw, &extra); err != nil {
		return nil, err
	}
	for k, v := range extra {
		props[k] = v
	}
	if top["properties"], err = payload.Encode(props); err != nil {
		return nil, err
	}
	return payload.Encode(top)
}

// RawProperties is the raw-read keys as the properties of a JSON Schema
// object (each its schema and description), as get_action shows them; nil
// when the action has none.
func (a *Action) RawProperties() (json.RawMessage, error) {
	if len(a.RawParams) == 0 {
		return nil, nil
	}
	s, err := inputSchema(a.RawParams)
	if err != nil {
		return nil, err
	}
	var top struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(s, &top); err != nil {
		return nil, err
	}
	return top.Properties, nil
}
