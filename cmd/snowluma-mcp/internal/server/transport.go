package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp/internal/server/tasks"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/mcp/stdio"
	"github.com/snowluma/snowluma-mcp/internal/members"
)

// Transport is the server's one seam at its connection: t, the stdio
// transport cmd builds, with this server's hooks, wrapped in w (nil for
// none).
//
// It exists because the SDK decodes every message into its typed requests,
// and answers some of them itself, before any middleware runs, and encodes
// every result itself after the last one has returned. What it gets wrong
// or cannot express at those points can only be put right on the JSON-RPC
// messages themselves, below the SDK:
//
//   - in, before the SDK sees a request (the stdio transport's Screen
//     hook): a modern-only method without a modern protocol version in its
//     _meta, and params of the wrong type (screen);
//   - at stdin EOF (its Owes hook): which calls owe an answer the exit
//     waits for (owesAnswer);
//   - in and out through the Wire (wire.go): a listen's taskIds, which the
//     SDK's decoding drops; notifications the SDK cannot send; answers
//     encoded once, which it would encode again.
//
// The stdio transport keeps no protocol knowledge of its own, so it takes
// the hooks as fields; the Wire wraps whatever transport it is given. Both
// are set here and nowhere else.
func Transport(w *Wire, t stdio.Transport) mcp.Transport {
	t.Screen, t.Owes = screen, owesAnswer
	return w.wrap(&t)
}

// modernOnly are the methods that exist only in the 2026-07-28 protocol.
var modernOnly = map[string]bool{
	"server/discover":      true,
	"subscriptions/listen": true,
}

// screen is the stdio transport's hook for requests the SDK would answer
// wrongly. A modern-only method without a modern protocol version in its
// _meta is a malformed request, which the spec answers with -32602 Invalid
// params; the SDK treats it as a legacy request and answers -32601 Method
// not found (discover), or runs it (a listen on a legacy session). A
// version that is present but older than 2026-07-28 is refused the same
// way: the method has no meaning at that version, and the fix the client
// needs is the same, the _meta of a modern request. SDK contract test:
// TestSDKDiscoverWithoutModernMetaIsMethodNotFound.
//
// It also refuses params of the wrong type (screenParams).
func screen(req *jsonrpc.Request) *jsonrpc.Error {
	if !req.IsCall() {
		return nil
	}
	if e := screenParams(req); e != nil {
		return e
	}
	if !modernOnly[req.Method] {
		return nil
	}
	if v, ok := generation.Version(req.Params); ok && v >= generation.ModernVersion {
		return nil
	}
	return &jsonrpc.Error{
		Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("%s is a %s method: params._meta must carry %s (and %s)",
			req.Method, generation.ModernVersion, generation.ProtocolVersionKey, "io.modelcontextprotocol/clientCapabilities"),
	}
}

// owesAnswer is the stdio transport's hook for the answers owed at stdin
// EOF. A subscriptions/listen stream ends only when the client cancels it
// or the session ends, so waiting for its answer would hold every exit for
// the transport's full drain bound; every other call ends on its own.
func owesAnswer(method string) bool { return method != "subscriptions/listen" }

// paramShape is the params type the SDK decodes a method's params into,
// and the member of it that is raw JSON (a json.RawMessage field, "" for
// none). Any value decodes into a raw member, so a screen need not read it:
// a tool call's arguments are most of what a large call carries.
type paramShape struct {
	new func() any
	raw string
}

// paramShapes are the params shapes of the methods an agent calls most
// with values it builds itself.
var paramShapes = map[string]paramShape{
	"tools/call":     {func() any { return new(mcp.CallToolParamsRaw) }, "arguments"},
	"resources/read": {func() any { return new(mcp.ReadResourceParams) }, ""},
	"tasks/get":      {func() any { return new(tasks.Params) }, ""},
	"tasks/update":   {func() any { return new(tasks.Params) }, ""},
	"tasks/cancel":   {func() any { return new(tasks.Params) }, ""},
}

// screenParams refuses params that do not decode into the method's params
// type with -32602 and a short message naming the field and the type it
// needs. The SDK's own refusal quotes the whole params back (1 MiB in, 1
// MiB of error out); this one repeats nothing the client sent. Params the
// SDK would refuse for another reason are left to it. SDK contract test:
// TestSDKDecodeFailureQuotesTheParams.
func screenParams(req *jsonrpc.Request) *jsonrpc.Error {
	shape, ok := paramShapes[req.Method]
	if !ok || len(req.Params) == 0 {
		return nil
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(withoutRaw(req.Params, shape.raw), shape.new()); !errors.As(err, &te) {
		return nil
	}
	field := "params"
	if te.Field != "" {
		field += "." + te.Field
	}
	got, _, _ := strings.Cut(te.Value, " ") // "number 1e999" names the number too
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("%s: %s must be %s, not %s", req.Method, field, kindOf(te.Type), got)}
}

// withoutRaw is params with the value of each member that decodes into the
// raw member (every key encoding/json matches to it, which ignores case)
// written as null, which decodes into it as well as any value: the decode
// then gives the same errors without scanning and copying the arguments
// twice. Params that are not an object are returned as they are. The
// transport has checked that they are valid JSON (stdio's admission).
func withoutRaw(params json.RawMessage, raw string) json.RawMessage {
	if raw == "" {
		return params
	}
	var spans [][2]int
	members.Each(params, func(k, v []byte) bool {
		if bytes.EqualFold(k, []byte(raw)) {
			start := members.Offset(params, v)
			spans = append(spans, [2]int{start, start + len(v)})
		}
		return true
	})
	if len(spans) == 0 {
		return params
	}
	out := make([]byte, 0, len(params)-spans[0][1]+spans[0][0]+4*len(spans))
	at := 0
	for _, sp := range spans {
		out = append(append(out, params[at:sp[0]]...), "null"...)
		at = sp[1]
	}
	return append(out, params[at:]...)
}

// kindOf names the JSON value a Go type decodes from.
func kindOf(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a JSON value"
}
