package server

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// bigArguments are query_action arguments of n unknown keys beside group_id.
func bigArguments(n int) string {
	var b strings.Builder
	b.WriteString(`{"action":"get_group_info","params":{"group_id":1`)
	for i := range n {
		fmt.Fprintf(&b, `,"junk_key_%07d":1`, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

func callRequest(t *testing.T, id any, params string) *jsonrpc.Request {
	t.Helper()
	rid, err := jsonrpc.MakeID(id)
	require.NoError(t, err)
	return &jsonrpc.Request{ID: rid, Method: "tools/call", Params: json.RawMessage(params)}
}

func TestTheBookParksLargeArgumentsAndGivesThemBackOnce(t *testing.T) {
	t.Parallel()
	b := newArgumentBook()
	args := bigArguments(2000)
	req := callRequest(t, float64(1), `{"name":"query_action", "arguments" : `+args+` ,"_meta":{}}`)
	b.park(nil, req)
	require.Less(t, len(req.Params), 200, "%s", req.Params)

	// What the SDK decodes: the params as sent, the arguments a reference.
	var p mcp.CallToolParamsRaw
	require.NoError(t, json.Unmarshal(req.Params, &p))
	assert.Equal(t, "query_action", p.Name)
	assert.NotNil(t, p.Meta)
	assert.True(t, strings.HasPrefix(string(p.Arguments), b.prefix), "%s", p.Arguments)

	assert.Equal(t, args, string(b.take(p.Arguments)), "given back byte for byte")
	assert.Equal(t, string(p.Arguments), string(b.take(p.Arguments)), "given back once")
	b.settle(nil, req.ID)
	assert.Empty(t, b.byRef)
	assert.Empty(t, b.byID)
}

func TestTheBookLeavesOtherRequestsAsTheyAre(t *testing.T) {
	t.Parallel()
	args := bigArguments(2000)
	tests := []struct {
		name   string
		method string
		id     any
		params string
	}{
		{"small arguments", "tools/call", float64(1), `{"name":"x","arguments":{"a":1},"pad":"` + strings.Repeat("p", parkMin) + `"}`},
		{"arguments given twice", "tools/call", float64(1), `{"name":"x","arguments":` + args + `,"arguments":` + args + `}`},
		{"arguments under another case", "tools/call", float64(1), `{"name":"x","Arguments":` + args + `}`},
		{"arguments beside a key of another case", "tools/call", float64(1), `{"name":"x","arguments":` + args + `,"ARGUMENTS":1}`},
		{"arguments that are not an object", "tools/call", float64(1), `{"name":"x","arguments":"` + strings.Repeat("s", parkMin) + `"}`},
		{"a notification", "tools/call", nil, `{"name":"x","arguments":` + args + `}`},
		{"another method", "prompts/get", float64(1), `{"name":"x","arguments":` + args + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := newArgumentBook()
			req := callRequest(t, tt.id, tt.params)
			req.Method = tt.method
			b.park(nil, req)
			assert.Equal(t, tt.params, string(req.Params))
			assert.Empty(t, b.byRef)
		})
	}
}

func TestTheBookParksNoCallWhoseIDIsInFlight(t *testing.T) {
	t.Parallel()
	b := newArgumentBook()
	params := `{"name":"x","arguments":` + bigArguments(2000) + `}`
	first, second := callRequest(t, "a", params), callRequest(t, "a", params)
	b.park(nil, first)
	b.park(nil, second)
	assert.NotEqual(t, params, string(first.Params))
	assert.Equal(t, params, string(second.Params), "the first call's answer would forget the second's arguments")

	other := callRequest(t, "a", params)
	b.park("another connection", other)
	assert.NotEqual(t, params, string(other.Params), "the same id on another connection is another call")
	b.settle("another connection", other.ID)
	assert.Len(t, b.byRef, 1, "its answer forgets its own arguments only")
}

// A call the SDK refuses before any middleware runs leaves nothing parked:
// its answer going out forgets the arguments.
func TestTheAnswerForgetsArgumentsTheSDKNeverHandedOn(t *testing.T) {
	t.Parallel()
	o := hostileOptions(t)
	o.Wire = NewWire()
	send := lineSession(t, o)
	reply := send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"query_action","arguments":` + bigArguments(2000) + `}}`)
	assert.Contains(t, reply, `"error"`)
	assert.Contains(t, reply, "clientCapabilities")
	o.Wire.parked.mu.Lock()
	defer o.Wire.parked.mu.Unlock()
	assert.Empty(t, o.Wire.parked.byRef)
	assert.Empty(t, o.Wire.parked.byID)
}

// Through the whole server, a large call is answered as it is without a
// Wire (nothing parked), and leaves nothing parked behind.
func TestALargeCallIsAnsweredAsWithoutParking(t *testing.T) {
	t.Parallel()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	tests := []struct {
		name string
		args string
		says string
	}{
		{"100,000 unknown keys", bigArguments(100000), "and 99997 more"},
		{"a long unknown value", `{"action":"get_group_info","params":{"group_id":1,"zz":"` + strings.Repeat("x", 1<<20) + `"}}`, `\"zz\"`},
		{"a reference a client wrote", `{"snowluma-mcp/parked":"0-0","pad":"` + strings.Repeat("x", parkMin) + `"}`, "snowluma-mcp/parked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta + `,"name":"query_action","arguments":` + tt.args + `}}`
			plain := lineSession(t, hostileOptions(t))(line)
			o := hostileOptions(t)
			o.Wire = NewWire()
			parked := lineSession(t, o)(line)
			assert.Contains(t, parked, tt.says)
			assert.Equal(t, scrubbed(plain), scrubbed(parked))
			o.Wire.parked.mu.Lock()
			defer o.Wire.parked.mu.Unlock()
			assert.Equal(t, 1, o.Wire.parked.next, "the call was parked")
			assert.Empty(t, o.Wire.parked.byRef)
			assert.Empty(t, o.Wire.parked.byID)
		})
	}
}

// hostileOptions is a read-mode server whose SnowLuma is never reached:
// every call here is refused before it would be.
func hostileOptions(t *testing.T) Options {
	u, _ := url.Parse("http://127.0.0.1:1/")
	return options(t, &config.Config{Mode: config.ModeRead, Endpoint: u, Timeout: 5 * time.Second, MaxStreams: 1, StreamConnectTimeout: time.Second})
}

// scrubbed is a reply without its trace id, which differs from one call to
// the next.
func scrubbed(reply string) string {
	return traceparent.ReplaceAllString(reply, `"traceparent":"…"`)
}

var traceparent = regexp.MustCompile(`"traceparent":"[^"]*"`)
