package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callArgs is shaped as a tool's arguments that name an action and pass
// its params on (handlers' query_action).
type callArgs struct {
	Action string `json:"action"`
	Params Object `json:"params,omitempty"`
	Extra  Object `json:"extra"`
	Count  Int    `json:"count"`
}

// Decode gives what json.Unmarshal gives, for every valid document: the
// same value, or an error where it fails.
func FuzzDecodeMatchesUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"action":"a","params":{"k":[1,2]}}`,
		`{"params":{"a":1},"PARAMS":{"b":2},"Params":null}`,
		`{"params":"s","extra":[1],"count":2.0}`,
		`{"action":5,"params":{}}`,
		`{"count":1.5,"params":{"x":1}}`,
		`{"paramſ":{"x":1}}`,
		`{"\u0070arams" : { "x" : 1 } , "action" : "b"}`,
		`[1]`,
		`null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		var want, got callArgs
		wantErr := json.Unmarshal(doc, &want)
		gotErr := Decode(doc, &got)
		require.Equal(t, wantErr == nil, gotErr == nil, "%q: %v / %v", doc, wantErr, gotErr)
		if wantErr == nil {
			require.Equal(t, want, got, "%q", doc)
		}
	})
}

// An Object member is not read by encoding/json: a params of many keys
// costs a scan, not a decode and a copy.
func TestDecodeSetsAnObjectAsideByteForByte(t *testing.T) {
	params := `{"group_id":1` + strings.Repeat(`,"junk":1`, 1000) + ` }`
	doc := []byte(`{"action":"get_group_info", "params" : ` + params + `}`)
	var a callArgs
	require.NoError(t, Decode(doc, &a))
	assert.Equal(t, "get_group_info", a.Action)
	assert.Equal(t, params, string(a.Params))
}

func TestDecodeOfATypeWithoutObjectsIsUnmarshal(t *testing.T) {
	var v struct {
		A int `json:"a"`
	}
	require.NoError(t, Decode([]byte(`{"a":3}`), &v))
	assert.Equal(t, 3, v.A)
	assert.Error(t, Decode([]byte(`{"a":"x"}`), &v))
}
