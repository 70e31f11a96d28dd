package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const spellingSchema = `{"type":"object","properties":{
 "group_id":{"type":"integer","minimum":1},
 "message_id":{"type":"integer","not":{"const":0}},
 "ids":{"type":"array","items":{"type":"integer","minimum":1}},
 "flag":{"type":"boolean"},
 "name":{"type":"string"},
 "either":{"type":["integer","string"]},
 "message":{}}}`

func TestNormalizeReadsWhatSnowLumaReadsAndKeepsTheRest(t *testing.T) {
	t.Parallel()
	v := MustCompile(spellingSchema)
	tests := []struct {
		name, in, want, err string
	}{
		{"leaves params in SnowLuma's spelling byte for byte", `{ "message":"<b> \u00e9", "group_id": 1 }`, `{ "message":"<b> \u00e9", "group_id": 1 }`, ""},
		{"keeps order and every other value while rewriting one", `{"message":{"a":[1, 2]},"group_id":"0042","name":"x"}`, `{"message":{"a":[1, 2]},"group_id":42,"name":"x"}`, ""},
		{"a minus where no minimum forbids it", `{"message_id":"-7"}`, `{"message_id":-7}`, ""},
		{"an integral float as the integer", `{"group_id":2.0001e4}`, `{"group_id":20001}`, ""},
		{"each element of an array", `{"ids":["1",2,"03"]}`, `{"ids":[1,2,3]}`, ""},
		{"quoted booleans", `{"flag":"false"}`, `{"flag":false}`, ""},
		{"a whole number for a string", `{"name":-12}`, `{"name":"-12"}`, ""},
		{"leaves a fraction for a string to the schema", `{"name":1.5}`, `{"name":1.5}`, ""},
		{"leaves a param that takes both alone", `{"either":"7"}`, `{"either":"7"}`, ""},
		{"leaves what is not an object to Validate", `[1]`, `[1]`, ""},
		{"refuses a minus the minimum forbids", `{"group_id":"-1"}`, "", `params.group_id: want an integer, or a string of its decimal digits (such as "20001"); the string "-1" is neither`},
		{"names the signed form where a minus is allowed", `{"message_id":"x"}`, "", `a string of its decimal digits, a minus first if negative`},
		{"refuses an id SnowLuma cannot hold exactly", `{"group_id":"9007199254740992"}`, "", "beyond 2^53-1"},
		{"refuses another word for a boolean", `{"flag":"on"}`, "", `params.flag: want true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := v.Normalize(json.RawMessage(tt.in), "params")
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestQuotedIntegersSaysWhetherAnyIntegerIsRead(t *testing.T) {
	t.Parallel()
	assert.True(t, MustCompile(spellingSchema).QuotedIntegers())
	assert.False(t, MustCompile(`{"type":"object","properties":{"flag":{"type":"boolean"},"either":{"type":["integer","string"]}}}`).QuotedIntegers())
	assert.False(t, MustCompile(`{"type":"object"}`).QuotedIntegers())
}
