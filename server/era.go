package server

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// protocolVersionKey is the _meta key that makes a request modern.
const protocolVersionKey = "io.modelcontextprotocol/protocolVersion"

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

// requestVersion reads params._meta[protocolVersionKey], reporting whether
// it is there as a string.
func requestVersion(params json.RawMessage) (string, bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return "", false
	}
	var v string
	if json.Unmarshal(p.Meta[protocolVersionKey], &v) != nil {
		return "", false
	}
	return v, true
}
