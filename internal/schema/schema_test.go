package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	v := MustCompile(`{"type":"object","properties":{"group_id":{"type":"integer","minimum":1,"x-role":"group_id"},
		"message_id":{"type":"integer","not":{"const":0}},"limit":{"type":"integer","maximum":200},"mode":{"enum":["a","b"]},
		"text":{"type":"string","minLength":1,"maxLength":5},
		"ids":{"type":"array","items":{"type":"integer","minimum":1}}},"required":["group_id"],"additionalProperties":true}`)
	tests := []struct {
		name string
		doc  string
		want string // "" means valid
	}{
		{"accepts a complete object", `{"group_id":123456789}`, ""},
		{"accepts a negative message id", `{"group_id":1,"message_id":-1559550018}`, ""},
		{"keeps unknown keys allowed", `{"group_id":1,"extra":true}`, ""},
		{"names a missing required field", `{}`, `params: required: missing properties: ["group_id"]`},
		{"names the path of a bad minimum", `{"group_id":0}`, "params.group_id: minimum violated: the value must be at least 1"},
		{"names the path of a bad maximum", `{"group_id":1,"limit":201}`, "params.limit: maximum violated: the value must be at most 200"},
		{"names an array element", `{"group_id":1,"ids":[1,0]}`, "params.ids[]: minimum violated"},
		{"refuses a zero message id", `{"group_id":1,"message_id":0}`, "params.message_id: this value is not allowed here"},
		{"refuses a wrong type", `{"group_id":"x"}`, `params.group_id: want integer, got string`},
		{"refuses a fraction for an integer", `{"group_id":1.5}`, `params.group_id: want integer, got number`},
		{"refuses a non-object", `[1]`, `params: want object, got array`},
		{"names null without the library's reflection text", `{"group_id":null}`, `params.group_id: want integer, got null`},
		{"names an enum's values", `{"group_id":1,"mode":"zz"}`, `params.mode: must be one of [a b]`},
		{"never repeats a huge value whole", `{"group_id":1,"mode":"` + strings.Repeat("y", 1<<20) + `"}`, `params.mode: must be one of [a b]`},
		{"refuses broken JSON", `{`, "params: not valid JSON"},
		{"names a string's length limit, counting characters", `{"group_id":1,"text":"群聊消息太长了"}`,
			"params.text: maxLength violated: the string has 7 characters and must have at most 5"},
		{"names the limit of a huge string without repeating it", `{"group_id":1,"text":"` + strings.Repeat("z", 1<<20) + `"}`,
			"params.text: maxLength violated: the string has 1048576 characters and must have at most 5"},
		{"names a minimum length", `{"group_id":1,"text":""}`, "params.text: minLength violated: the string has 0 characters and must have at least 1"},
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
			assert.Less(t, len(err.Error()), 400, "a message stays short")
		})
	}
}

func TestClosedObjectsRefuseExtraKeys(t *testing.T) {
	t.Parallel()
	v := MustCompile(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`)
	err := v.Validate(json.RawMessage(`{"a":"x","b":1}`), "arguments")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `arguments: unexpected additional properties ["b"]`)
}

func TestCompileRefusesBadSchema(t *testing.T) {
	t.Parallel()
	_, err := Compile(json.RawMessage(`{"type":7}`))
	assert.Error(t, err)
	_, err = Compile(json.RawMessage(`{`))
	assert.Error(t, err)
}

// TestValidateNamesEveryTopLevelProblem: the validator stops at its first
// problem, so get_action {nme: …} used to hear only of "nme" and came back
// without name; a refusal now names every unexpected and missing property,
// with the suggester's names, and the first problem inside a value.
func TestValidateNamesEveryTopLevelProblem(t *testing.T) {
	t.Parallel()
	const closed = `{"type":"object","properties":{"name":{"type":"string","minLength":1},"limit":{"type":"integer","maximum":5}},"required":["name"],"additionalProperties":false}`
	near := func(key string, names []string) []string {
		if key == "nme" {
			return []string{"name"}
		}
		return nil
	}
	tests := []struct {
		name   string
		schema string
		near   Near
		doc    string
		want   string
	}{
		{"a slip and the property it left out", closed, near, `{"nme":"get_msg"}`,
			`arguments: unexpected additional properties ["nme"] (did you mean name in place of "nme"?); required: missing properties: ["name"]`},
		{"without a suggester, the names alone", closed, nil, `{"nme":"get_msg"}`,
			`arguments: unexpected additional properties ["nme"]; required: missing properties: ["name"]`},
		{"every unexpected property, sorted", closed, nil, `{"name":"x","b":1,"a":2}`,
			`arguments: unexpected additional properties ["a" "b"]`},
		{"a value's problem beside a missing property", closed, nil, `{"limit":9}`,
			`arguments: required: missing properties: ["name"]; arguments.limit: maximum violated: the value must be at most 5`},
		{"a value's problem alone reads as before", closed, nil, `{"name":"x","limit":9}`,
			`arguments.limit: maximum violated: the value must be at most 5`},
		{"an open schema names only what is missing", `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a","b"]}`, nil, `{"c":1}`,
			`arguments: required: missing properties: ["a" "b"]`},
		{"a non-object reads as before", closed, nil, `[1]`, `arguments: want object, got array`},
		{"many unexpected properties: a few named, the rest counted", closed, nil, `{"name":"x","e":1,"d":1,"c":1,"b":1,"a":1}`,
			`arguments: unexpected additional properties ["a" "b" "c"] and 2 more`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := MustCompile(tt.schema).Suggest(tt.near).Validate(json.RawMessage(tt.doc), "arguments")
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestARefusalOfManyKeysStaysSmall(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"name":"x"`)
	for i := range 100000 {
		fmt.Fprintf(&b, `,"junk_key_%d":1`, i)
	}
	b.WriteString("}")
	v := MustCompile(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)
	err := v.Validate(json.RawMessage(b.String()), "arguments")
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 200, "the refusal names a few keys and counts the rest")
	assert.Contains(t, err.Error(), "and 99997 more")
}
