package server

import (
	"context"
	"errors"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/events"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
)

// codeLegacyNotFound is the resources/read error for a URI that names no
// resource, as the 2025-11-25 (and earlier) specification recommends and
// clients test for (mcp-go's ErrResourceNotFound). The 2026-07-28 protocol
// moved it to -32602 Invalid params, which is all the SDK v1.8.0 sends.
const codeLegacyNotFound = -32002

// notFound is a read of a URI that names no resource, raised by this
// server's own resource handlers: the 2026-07-28 answer (-32602, the URI in
// data), which notFoundCodes turns into the legacy one for older requests.
type notFound struct{ err *jsonrpc.Error }

func (e notFound) Error() string { return e.err.Error() }
func (e notFound) Unwrap() error { return e.err }

// resourceNotFound is the error for a read of uri, which names nothing;
// why tells the agent what to do instead.
func resourceNotFound(uri, why string) error {
	return notFound{events.InvalidURI(uri, why)}
}

// notFoundCodes answers a read of a URI that names no resource, whether
// this server's handlers said so (resourceNotFound) or the SDK did
// (mcp.ResourceNotFoundError, for a URI no resource or template matches),
// with the code of the request's generation: -32002 for a legacy request,
// -32602 at 2026-07-28. It hands the SDK a plain *jsonrpc.Error, the only
// error whose data the SDK writes out. SDK contract test:
// TestSDKResourceNotFoundIsInvalidParams.
func notFoundCodes(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := req.(*mcp.ReadResourceRequest)
		if err == nil || !ok || r.Params == nil {
			return res, err
		}
		je := notFoundOf(err, r.Params.URI)
		if je == nil {
			return res, err
		}
		out := *je
		if !generation.Modern(req) {
			out.Code = codeLegacyNotFound
		}
		return nil, &out
	}
}

// notFoundOf is err's JSON-RPC error when it says uri names no resource.
// The SDK's own not-found is recognised by being exactly what its
// constructor makes for uri (SDK contract test:
// TestSDKUnmatchedReadFailsWithResourceNotFoundError).
func notFoundOf(err error, uri string) *jsonrpc.Error {
	var nf notFound
	if errors.As(err, &nf) {
		return nf.err
	}
	var je *jsonrpc.Error
	if sdk := mcp.ResourceNotFoundError(uri); errors.As(err, &je) && reflect.DeepEqual(je, sdk) {
		return je
	}
	return nil
}
