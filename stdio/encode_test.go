package stdio

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEncodeLineMatchesEncodeMessage(t *testing.T) {
	t.Parallel()
	id := func(v any) jsonrpc.ID {
		i, err := jsonrpc.MakeID(v)
		require.NoError(t, err)
		return i
	}
	result := json.RawMessage(`{"tools":[{"name":"a<b>&c","description":"中文 \u2028 \"q\""}],"ttlMs":300000}`)
	tests := []struct {
		name string
		msg  jsonrpc.Message
	}{
		{"a result with an integer id", &jsonrpc.Response{ID: id(7.0), Result: result}},
		{"a result with a negative id", &jsonrpc.Response{ID: id(-9007199254740992.0), Result: result}},
		{"a result with a zero id", &jsonrpc.Response{ID: id(0.0), Result: result}},
		{"a result with a string id", &jsonrpc.Response{ID: id("req-1"), Result: result}},
		{"a result with a string id needing escapes", &jsonrpc.Response{ID: id("<a>&\"\n\u2028\x01é"), Result: result}},
		{"a result with an empty string id", &jsonrpc.Response{ID: id(""), Result: result}},
		{"an error response", &jsonrpc.Response{ID: id(3.0), Error: &jsonrpc.Error{Code: -32602, Message: "bad"}}},
		{"a response with neither", &jsonrpc.Response{ID: id(3.0)}},
		{"a plain error response", &jsonrpc.Response{ID: id("x"), Error: errors.New("boom")}},
		{"a notification", &jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progress":1}`)}},
		{"a server request", &jsonrpc.Request{ID: id(1.0), Method: "elicitation/create", Params: json.RawMessage(`{}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, err := jsonrpc.EncodeMessage(tt.msg)
			require.NoError(t, err)
			got, err := encodeLine(tt.msg, nil)
			require.NoError(t, err)
			assert.Equal(t, string(want)+"\n", string(got))
		})
	}
}

func TestEncodeLineLetsResultsReplaceOnlySuccessfulResults(t *testing.T) {
	t.Parallel()
	id, err := jsonrpc.MakeID(float64(4))
	require.NoError(t, err)
	swap := func(r json.RawMessage) json.RawMessage {
		if string(r) == `{"ref":1}` {
			return json.RawMessage(`{"tools":["a"]}`)
		}
		return r
	}
	tests := []struct {
		name string
		msg  jsonrpc.Message
		want string
	}{
		{"a result it knows is replaced", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"ref":1}`)}, `{"jsonrpc":"2.0","id":4,"result":{"tools":["a"]}}`},
		{"another result is kept", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"ref":2}`)}, `{"jsonrpc":"2.0","id":4,"result":{"ref":2}}`},
		{"an error is never passed", &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32603, Message: "m"}}, `{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"m"}}`},
		{"a notification is never passed", &jsonrpc.Request{Method: "notifications/x", Params: json.RawMessage(`{"ref":1}`)}, `{"jsonrpc":"2.0","method":"notifications/x","params":{"ref":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := encodeLine(tt.msg, swap)
			require.NoError(t, err)
			assert.Equal(t, tt.want+"\n", string(got))
		})
	}
}
