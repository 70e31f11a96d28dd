package schema

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type resultInner struct {
	Reason string `json:"reason"`
}

type resultSample struct {
	Name         string            `json:"name" jsonschema:"who"`
	Count        int               `json:"count,omitempty"`
	State        string            `json:"state" schema:"enum=on|off"`
	Since        time.Time         `json:"since"`
	Tags         []string          `json:"tags"`
	Extra        json.RawMessage   `json:"extra"`
	Labels       map[string]int    `json:"labels,omitempty"`
	Next         *resultInner      `json:"next"`
	*resultInner                   // promoted as encoding/json does, never required: nil writes none
	Nested       struct{ X Int }   `json:"nested"`
	Anyway       any               `json:"anyway"`
	Skipped      string            `json:"-"`
	Keyed        map[string]string `json:"keyed"`
}

func TestResultForDescribesWhatEncodingJSONWrites(t *testing.T) {
	t.Parallel()
	doc, err := ResultFor[resultSample]()
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(doc, &got))
	props := got["properties"].(map[string]any)
	tests := []struct {
		name, field string
		want        string
	}{
		{"describes a field", "name", `{"type":"string","description":"who"}`},
		{"keeps an enum and admits no null for a value", "state", `{"enum":["on","off"]}`},
		{"writes a time as a date-time string", "since", `{"type":"string","format":"date-time"}`},
		{"lets a nil slice be null", "tags", `{"type":["array","null"],"items":{"type":"string"}}`},
		{"takes raw JSON as anything", "extra", `{}`},
		{"maps a map to an object of its values, never null when omitempty", "labels", `{"type":"object","additionalProperties":{"type":"integer"}}`},
		{"lets a nil map be null", "keyed", `{"type":["object","null"],"additionalProperties":{"type":"string"}}`},
		{"lets a nil pointer be null", "next", `{"type":["object","null"],"properties":{"reason":{"type":"string"}},"required":["reason"]}`},
		{"promotes an embedded pointer's fields", "reason", `{"type":"string"}`},
		{"takes an interface as anything", "anyway", `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(props[tt.field])
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
		})
	}
	assert.Equal(t, []any{"object", "null"}, got["type"], "a tool error's payload is null")
	assert.NotContains(t, props, "Skipped")
	assert.ElementsMatch(t, []any{"name", "state", "since", "tags", "extra", "next", "nested", "anyway", "keyed"}, got["required"],
		"omitempty fields and an embedded pointer's fields are not required")
}

type selfEncoding struct{}

func (selfEncoding) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

func TestResultForRefusesATypeThatEncodesItself(t *testing.T) {
	t.Parallel()
	_, err := ResultFor[struct {
		S selfEncoding `json:"s"`
	}]()
	assert.ErrorContains(t, err, "encodes itself")
}
