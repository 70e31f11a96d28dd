package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/mcp/stdio"
)

func TestTransportScreensRequestsBeforeTheSDKSeesThem(t *testing.T) {
	t.Parallel()
	in := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	var out bytes.Buffer
	c, err := Transport(nil, stdio.Transport{In: strings.NewReader(in), Out: &out}).Connect(context.Background())
	require.NoError(t, err)
	msg, err := c.Read(context.Background())
	require.NoError(t, err)
	req, ok := msg.(*jsonrpc.Request)
	require.True(t, ok, "%T", msg)
	assert.Equal(t, "notifications/initialized", req.Method, "the discover without modern _meta never reaches the SDK")
	_, err = c.Read(context.Background())
	assert.ErrorIs(t, err, io.EOF)
	assert.Contains(t, out.String(), `"code":-32602`, "it is answered in the SDK's place")
	assert.Contains(t, out.String(), "server/discover is a 2026-07-28 method")
}

func TestScreenRefusesModernOnlyMethodsWithoutModernMeta(t *testing.T) {
	t.Parallel()
	const caps = `"io.modelcontextprotocol/clientCapabilities":{}`
	tests := []struct {
		name    string
		method  string
		params  string
		call    bool
		refused bool
	}{
		{"refuses discover without params", "server/discover", ``, true, true},
		{"refuses discover without _meta", "server/discover", `{}`, true, true},
		{"refuses discover with _meta lacking the version", "server/discover", `{"_meta":{` + caps + `}}`, true, true},
		{"refuses discover with a null version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":null}}`, true, true},
		{"refuses discover with a numeric version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}`, true, true},
		{"refuses discover with a legacy version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}`, true, true},
		{"refuses discover with params that are not an object", "server/discover", `[1]`, true, true},
		{"refuses listen without _meta", "subscriptions/listen", `{"notifications":{}}`, true, true},
		{"passes discover with a modern version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` + caps + `}}`, true, false},
		{"passes discover with a newer version for the SDK to refuse with -32022", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}`, true, false},
		{"passes legacy methods without _meta", "tools/list", ``, true, false},
		{"passes notifications", "server/discover", ``, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := &jsonrpc.Request{Method: tt.method}
			if tt.params != "" {
				req.Params = json.RawMessage(tt.params)
			}
			if tt.call {
				id, err := jsonrpc.MakeID("r1")
				require.NoError(t, err)
				req.ID = id
			}
			e := screen(req)
			if !tt.refused {
				assert.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), e.Code)
			assert.Contains(t, e.Message, generation.ProtocolVersionKey)
		})
	}
}

func TestOwesAnswerIsFalseOnlyForAListen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		method string
		owes   bool
	}{
		{"a tool call ends on its own, so EOF waits for it", "tools/call", true},
		{"a list ends on its own, so EOF waits for it", "tools/list", true},
		{"a subscription stream ends only when cancelled, so EOF does not wait", "subscriptions/listen", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.owes, owesAnswer(tt.method))
		})
	}
}

func TestScreenRefusesParamsOfTheWrongTypeWithoutEchoingThem(t *testing.T) {
	t.Parallel()
	pad := `"pad":"` + strings.Repeat("x", 1<<20) + `"`
	tests := []struct {
		name   string
		method string
		params string
		says   string // "" means passed on to the SDK
	}{
		{"a numeric taskId", "tasks/get", `{"taskId":7,` + pad + `}`, "tasks/get: params.taskId must be a string, not number"},
		{"an object taskId", "tasks/cancel", `{"taskId":{"a":1}}`, "tasks/cancel: params.taskId must be a string, not object"},
		{"a huge number names no digits", "tasks/update", `{"taskId":1` + strings.Repeat("0", 1000) + `}`, "tasks/update: params.taskId must be a string, not number"},
		{"a numeric tool name", "tools/call", `{"name":5,"arguments":{` + pad + `}}`, "tools/call: params.name must be a string, not number"},
		{"a _meta that is not an object", "tools/call", `{"name":"x","_meta":[1]}`, "tools/call: params._meta must be an object, not array"},
		{"a numeric resource URI", "resources/read", `{"uri":12,` + pad + `}`, "resources/read: params.uri must be a string, not number"},
		{"params that are not an object", "resources/read", `"snowluma://onebot/actions"`, "resources/read: params must be an object, not string"},
		{"a well-typed call passes", "tools/call", `{"name":"x","arguments":{"a":1}}`, ""},
		{"arguments of any kind pass", "tools/call", `{"name":"x","arguments":"s","ARGUMENTS":[1],"argumentſ":5}`, ""},
		{"a wrong type after the arguments", "tools/call", `{"arguments":{` + pad + `},"_meta":{"progressToken":[1]},"name":true}`, "tools/call: params.name must be a string, not bool"},
		{"a well-typed task method passes", "tasks/get", `{"taskId":"t1"}`, ""},
		{"an unscreened method passes", "tools/list", `{"cursor":5}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id, err := jsonrpc.MakeID("r1")
			require.NoError(t, err)
			e := screen(&jsonrpc.Request{ID: id, Method: tt.method, Params: json.RawMessage(tt.params)})
			if tt.says == "" {
				assert.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), e.Code)
			assert.Equal(t, tt.says, e.Message)
		})
	}
}

// The screen reads a tool call's params without its arguments, which decode
// into a raw member from any value: it finds what decoding the whole params
// finds (the first field of the wrong type, or none).
func FuzzScreenWithoutArgumentsDecodesAsTheParams(f *testing.F) {
	for _, s := range []string{
		`{"name":"x","arguments":{"a":1}}`,
		`{"name":5,"arguments":{"a":1}}`,
		`{"arguments":[1,2],"name":"x","_meta":{"progressToken":{}}}`,
		`{"Arguments":1,"arguments":2,"\u0061rguments":3,"name":[]}`,
		`{"name":"x","inputResponses":5,"requestState":{}}`,
		`{"_meta":[],"arguments":null}`,
		`"params"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		if !json.Valid(params) {
			return
		}
		whole := json.Unmarshal(params, new(mcp.CallToolParamsRaw))
		part := json.Unmarshal(withoutRaw(params, "arguments"), new(mcp.CallToolParamsRaw))
		var a, b *json.UnmarshalTypeError
		require.Equal(t, errors.As(whole, &a), errors.As(part, &b), "%q: %v / %v", params, whole, part)
		if a != nil {
			require.Equal(t, [3]string{a.Field, a.Value, a.Type.String()}, [3]string{b.Field, b.Value, b.Type.String()}, "%q", params)
		}
	})
}
