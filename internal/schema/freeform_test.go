package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const toolSchema = `{"type":"object","properties":{"action":{"type":"string","minLength":1},"params":{"type":"object","description":"free"},"opts":{"type":"object","properties":{"n":{"type":"integer"}}}},"required":["action"],"additionalProperties":false}`

// withKeys is tool arguments whose params hold n keys.
func withKeys(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"action":"a","params":{"k":{"deep":[1,2]}`)
	for i := range n {
		fmt.Fprintf(&b, `,"key_%07d":1`, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}

// TestAFreeFormObjectIsCheckedWithoutDecodingIt: a property whose schema is
// a bare object accepts any object, so Validate checks it is one without
// decoding its keys; everything else is validated as before.
func TestAFreeFormObjectIsCheckedWithoutDecodingIt(t *testing.T) {
	t.Parallel()
	v := MustCompile(toolSchema)
	assert.Equal(t, map[string]bool{"params": true}, v.free, "opts has properties: it is decoded")
	tests := []struct {
		name, doc, err string
	}{
		{"many keys in params", string(withKeys(1000)), ""},
		{"params not an object", `{"action":"a","params":[1]}`, "params.params"},
		{"params a string", `{"action":"a","params":"{}"}`, "params.params"},
		{"a constrained object is still decoded", `{"action":"a","opts":{"n":"x"}}`, "params.opts.n"},
		{"the rest is still checked", `{"action":"","params":{}}`, "params.action"},
		{"an unknown top-level key", `{"action":"a","zz":1}`, "zz"},
		{"not JSON", `{"action":"a","params":{]}`, "not valid JSON"},
		{"not an object", `[1]`, "params"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := v.Validate(json.RawMessage(tt.doc), "params")
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}

// TestAFreeFormObjectsKeysCostNothing counts allocations: ten times the
// keys inside params allocates no more (they are scanned, never decoded).
func TestAFreeFormObjectsKeysCostNothing(t *testing.T) {
	v := MustCompile(toolSchema)
	small, large := withKeys(10000), withKeys(100000)
	a10k := testing.AllocsPerRun(3, func() { _ = v.Validate(small, "arguments") })
	a100k := testing.AllocsPerRun(3, func() { _ = v.Validate(large, "arguments") })
	t.Logf("%.0f allocations for 10,000 keys in params, %.0f for 100,000", a10k, a100k)
	assert.LessOrEqual(t, a100k, a10k*1.1)
}

// TestAKeywordOverTheWholeDocumentKeepsTheFullDecode: a root schema that
// could look inside a property by another path decodes everything.
func TestAKeywordOverTheWholeDocumentKeepsTheFullDecode(t *testing.T) {
	t.Parallel()
	v := MustCompile(`{"type":"object","properties":{"params":{"type":"object"}},"allOf":[{"properties":{"params":{"required":["x"]}}}]}`)
	assert.Empty(t, v.free)
	assert.Error(t, v.Validate(json.RawMessage(`{"params":{}}`), "arguments"))
}
