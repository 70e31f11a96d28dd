package server

// The hooks the stdio transport (internal/mcp/stdio) takes from the server,
// for what only the server knows about a request before the SDK sees it.

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// modernOnly are the methods that exist only in the 2026-07-28 protocol.
var modernOnly = map[string]bool{
	"server/discover":      true,
	"subscriptions/listen": true,
}

// Screen is the stdio transport's hook for requests the SDK would answer
// wrongly. A modern-only method without a modern protocol version in its
// _meta is a malformed request, which the spec answers with -32602 Invalid
// params; the SDK treats it as a legacy request and answers -32601 Method
// not found (discover), or runs it (a listen on a legacy session). A
// version that is present but older than 2026-07-28 is refused the same
// way: the method has no meaning at that version, and the fix the client
// needs is the same, the _meta of a modern request.
func Screen(req *jsonrpc.Request) *jsonrpc.Error {
	if !req.IsCall() || !modernOnly[req.Method] {
		return nil
	}
	if v, ok := requestVersion(req.Params); ok && v >= ModernVersion {
		return nil
	}
	return &jsonrpc.Error{
		Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("%s is a %s method: params._meta must carry %s (and %s)",
			req.Method, ModernVersion, protocolVersionKey, "io.modelcontextprotocol/clientCapabilities"),
	}
}

// OwesAnswer is the stdio transport's hook for the answers owed at stdin
// EOF. A subscriptions/listen stream ends only when the client cancels it
// or the session ends, so waiting for its answer would hold every exit for
// the transport's full drain bound; every other call ends on its own.
func OwesAnswer(method string) bool { return method != "subscriptions/listen" }
