// Package payload encodes what the server hands out as JSON (tool results,
// catalog contracts): raw JSON stays byte for byte (numbers as written,
// null versus {}), and Go values are encoded without HTML escaping, so that
// "<", ">" and "&" in QQ messages reach the agent as written.
package payload

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Encode returns v as JSON.
func Encode(v any) (json.RawMessage, error) {
	switch p := v.(type) {
	case nil:
		return json.RawMessage("null"), nil
	case json.RawMessage:
		if !json.Valid(p) {
			return nil, errors.New("payload is not valid JSON")
		}
		return p, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
