package schema

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type sample struct {
	Query  string `json:"query" jsonschema:"what to find"`
	Match  string `json:"match,omitempty" schema:"enum=substring|keywords,default=substring"`
	Limit  *Int   `json:"limit,omitempty" schema:"minimum=1,maximum=200"`
	Params Object `json:"params,omitempty"`
	IDs    []Int  `json:"ids,omitempty" schema:"maxItems=100,items.minimum=1"`
	Opts   *struct {
		File string `json:"file" schema:"minLength=1"`
	} `json:"opts,omitempty"`
}

func TestForDerivesTheSchemaFromTheStruct(t *testing.T) {
	t.Parallel()
	doc, err := For[sample]()
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","additionalProperties":false,"required":["query"],"properties":{
		"query":{"type":"string","description":"what to find"},
		"match":{"enum":["substring","keywords"],"default":"substring"},
		"limit":{"type":"integer","minimum":1,"maximum":200},
		"params":{"type":"object"},
		"ids":{"type":"array","items":{"type":"integer","minimum":1},"maxItems":100},
		"opts":{"type":"object","additionalProperties":false,"required":["file"],"properties":{"file":{"type":"string","minLength":1}}}}}`, string(doc))
}

func TestForKeepsAnEmptyPropertiesObject(t *testing.T) {
	t.Parallel()
	doc, err := For[struct{}]()
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","additionalProperties":false,"properties":{}}`, string(doc))
}

func TestForRefusesABadTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  func() (json.RawMessage, error)
	}{
		{"refuses an unknown key", For[struct {
			A string `json:"a" schema:"shape=round"`
		}]},
		{"refuses a pair without a value", For[struct {
			A string `json:"a" schema:"minLength"`
		}]},
		{"refuses items keys on a non-array", For[struct {
			A string `json:"a" schema:"items.minimum=1"`
		}]},
		{"refuses a bound that is not a number", For[struct {
			A int `json:"a" schema:"minimum=one"`
		}]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.doc()
			assert.Error(t, err)
		})
	}
}

func TestIntDecodesWhatJSONSchemaCallsAnInteger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Int
		err  bool
	}{
		{"reads a plain integer", `5`, 5, false},
		{"reads an integral float", `5.0`, 5, false},
		{"reads an exponent", `1.5e3`, 1500, false},
		{"reads a negative integer", `-42`, -42, false},
		{"refuses a fraction", `5.5`, 0, true},
		{"refuses a string", `"5"`, 0, true},
		{"refuses a value beyond int64", `1e19`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got Int
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestObjectKeepsItsBytes(t *testing.T) {
	t.Parallel()
	var v struct {
		P Object `json:"p"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"p":{"n":1.50, "z":null}}`), &v))
	assert.Equal(t, `{"n":1.50, "z":null}`, string(v.P))
	assert.True(t, v.P.Given())
	assert.False(t, Object(nil).Given())
	assert.False(t, Object("null").Given())
}

type plain struct {
	Name   string   `json:"name" jsonschema:"a name"`
	Flag   bool     `json:"flag,omitempty"`
	Count  int      `json:"count,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	Nested *struct {
		Deep int64 `json:"deep"`
	} `json:"nested,omitempty"`
	//lint:ignore U1000 an unexported field, which the schema must leave out
	skipped string
	Ignored string `json:"-"`
}

// TestForAgreesWithTheSDKsFor holds For to the library the SDK uses, for the
// part they share: the library lets pointers and slices be null, arguments
// never are.
func TestForAgreesWithTheSDKsFor(t *testing.T) {
	t.Parallel()
	ref, err := jsonschema.For[plain](nil)
	require.NoError(t, err)
	raw, err := json.Marshal(ref)
	require.NoError(t, err)
	var want any
	require.NoError(t, json.Unmarshal(raw, &want))
	got, err := For[plain]()
	require.NoError(t, err)
	wantJSON, _ := json.Marshal(withoutNull(want))
	assert.JSONEq(t, string(wantJSON), string(got))
}

// withoutNull drops "null" from every type list of a decoded schema.
func withoutNull(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = withoutNull(e)
		}
		if types, ok := x["type"].([]any); ok {
			var kept []any
			for _, t := range types {
				if t != "null" {
					kept = append(kept, t)
				}
			}
			if len(kept) == 1 {
				x["type"] = kept[0]
			} else {
				x["type"] = kept
			}
		}
	case []any:
		for i, e := range x {
			x[i] = withoutNull(e)
		}
	}
	return v
}
