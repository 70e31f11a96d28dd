package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	v := MustCompile(`{"type":"object","properties":{"group_id":{"type":"integer","minimum":1},
		"message_id":{"type":"integer","not":{"const":0}}},"required":["group_id"],"additionalProperties":true}`)
	tests := []struct {
		name string
		doc  string
		want string // "" means valid
	}{
		{"accepts a complete object", `{"group_id":123456789}`, ""},
		{"accepts a negative message id", `{"group_id":1,"message_id":-1559550018}`, ""},
		{"keeps unknown keys allowed", `{"group_id":1,"extra":true}`, ""},
		{"names a missing required field", `{}`, "params: missing property 'group_id'"},
		{"names the path of a bad minimum", `{"group_id":0}`, "params.group_id: minimum: got 0, want 1"},
		{"refuses a zero message id", `{"group_id":1,"message_id":0}`, "params.message_id: this value is not allowed here"},
		{"refuses a wrong type", `{"group_id":"x"}`, "params.group_id: got string, want integer"},
		{"refuses a non-object", `[1]`, "params: got array, want object"},
		{"refuses broken JSON", `{`, "params: not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := v.Validate(json.RawMessage(tt.doc), "params")
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestCompileRefusesBadSchema(t *testing.T) {
	t.Parallel()
	_, err := Compile(json.RawMessage(`{"type":"nonsense"}`))
	assert.Error(t, err)
	_, err = Compile(json.RawMessage(`{`))
	assert.Error(t, err)
}
