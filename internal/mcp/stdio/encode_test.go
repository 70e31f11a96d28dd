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
			got, err := encodeLine(tt.msg)
			require.NoError(t, err)
			assert.Equal(t, string(want)+"\n", string(got))
		})
	}
}
