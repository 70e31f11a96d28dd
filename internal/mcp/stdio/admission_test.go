package stdio

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdmitLetsThroughWhatTheSDKCarriesExactly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		line   string
		method string // "" for a response
		id     any    // raw id as the SDK holds it; nil for a notification
	}{
		{"a call with an integer id", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "tools/list", int64(1)},
		{"a call with a string id", `{"jsonrpc":"2.0","id":"a-1","method":"tools/list"}`, "tools/list", "a-1"},
		{"a call with the largest exact integer id", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, "ping", int64(1 << 53)},
		{"a call with a negative id", `{"jsonrpc":"2.0","id":-3,"method":"ping"}`, "ping", int64(-3)},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "notifications/initialized", nil},
		{"a line with surrounding whitespace", "  \t{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r ", "ping", int64(2)},
		{"a response with a result", `{"jsonrpc":"2.0","id":4,"result":{}}`, "", int64(4)},
		{"a response with an error", `{"jsonrpc":"2.0","id":"e","error":{"code":-1,"message":"no"}}`, "", "e"},
		{"a string id with escapes", `{"jsonrpc":"2.0","id":"\u00e9\n","method":"ping"}`, "ping", "é\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			msg, refused := admit([]byte(tt.line))
			require.Nil(t, refused)
			switch m := msg.(type) {
			case *jsonrpc.Request:
				assert.Equal(t, tt.method, m.Method)
				assert.Equal(t, tt.id, m.ID.Raw())
			case *jsonrpc.Response:
				assert.Empty(t, tt.method)
				assert.Equal(t, tt.id, m.ID.Raw())
			default:
				require.Failf(t, "no message", "%T", msg)
			}
		})
	}
}

func TestAdmitRefusesWhatTheSDKWouldMishandle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		code float64
		id   any // as echoed in the reply
	}{
		{"refuses invalid JSON with a parse error", `{"jsonrpc":"2.0",`, -32700, nil},
		{"refuses plain text with a parse error", `hello`, -32700, nil},
		{"refuses invalid UTF-8 with a parse error rather than rewrite a string id", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}", -32700, nil},
		{"refuses trailing data after the message", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, -32700, nil},
		{"refuses a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, nil},
		{"refuses an empty batch", `[]`, -32600, nil},
		{"refuses a bare value", `42`, -32600, nil},
		{"refuses a message without a method, keeping its id", `{"jsonrpc":"2.0","id":7}`, -32600, float64(7)},
		{"refuses a wrong jsonrpc version", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, -32600, "a"},
		{"refuses a missing jsonrpc version", `{"id":"a","method":"ping"}`, -32600, "a"},
		{"refuses a non-string method", `{"jsonrpc":"2.0","id":77,"method":5}`, -32600, float64(77)},
		{"refuses a null id instead of treating the call as a notification", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, -32600, nil},
		{"refuses a fractional id, echoing it", `{"jsonrpc":"2.0","id":9.5,"method":"tools/list"}`, -32600, 9.5},
		{"refuses an integer id written with a fraction", `{"jsonrpc":"2.0","id":1.0,"method":"tools/list"}`, -32600, 1.0},
		{"refuses an id in exponent form", `{"jsonrpc":"2.0","id":1e2,"method":"tools/list"}`, -32600, 100.0},
		{"refuses an id beyond 2^53, echoing it", `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`, -32600, 9007199254740993.0},
		{"refuses an id below -2^53", `{"jsonrpc":"2.0","id":-9007199254740993,"method":"tools/list"}`, -32600, -9007199254740993.0},
		{"refuses a boolean id without echoing it", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, -32600, nil},
		{"refuses an object id without echoing it", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			msg, refused := admit([]byte(tt.line))
			require.Nil(t, msg)
			require.NotNil(t, refused)
			var reply struct {
				JSONRPC string `json:"jsonrpc"`
				ID      any    `json:"id"`
				Error   struct {
					Code    float64 `json:"code"`
					Message string  `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(refused.reply(), &reply))
			assert.Equal(t, "2.0", reply.JSONRPC)
			assert.Equal(t, tt.code, reply.Error.Code)
			assert.NotEmpty(t, reply.Error.Message)
			assert.Equal(t, tt.id, reply.ID)
		})
	}
}

func TestAdmitSkipsBlankLines(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"", " ", "\t\r"} {
		msg, refused := admit([]byte(line))
		assert.Nil(t, msg)
		assert.Nil(t, refused)
	}
}

func TestTooLongNamesTheLimit(t *testing.T) {
	t.Parallel()
	var reply struct {
		ID    any `json:"id"`
		Error struct {
			Code    float64 `json:"code"`
			Message string  `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(tooLong(1234).reply(), &reply))
	assert.Nil(t, reply.ID)
	assert.Equal(t, -32600.0, reply.Error.Code)
	assert.Contains(t, reply.Error.Message, "1234")
}
