package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// legacyVersions are the SDK's protocol versions that use initialize, the
// newest first.
var legacyVersions = func() []string {
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < ModernVersion {
			out = append(out, v)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}()

// negotiated is the version a legacy initialize asking for requested ends
// up with: the same one if it is a legacy version the server speaks, the
// newest legacy version otherwise (a modern or unknown one).
func negotiated(requested string) string {
	if slices.Contains(legacyVersions, requested) {
		return requested
	}
	return legacyVersions[0]
}

// legacySessions keeps a legacy session legacy, whatever the client asked
// for or sends later. The SDK decides per session whether to answer tool
// calls in the 2026-07-28 way (resultType, input_required instead of
// elicitation/create) from the version in the stored initialize params.
// Two things put a modern version there:
//
//   - initialize asking for 2026-07-28 or a newer, unknown version: the SDK
//     answers with the newest legacy version but stores the one asked for.
//     The params are rewritten to what is negotiated before the SDK stores
//     them, so the session's version is the one the client was told.
//   - server/discover: the SDK stores the discover's _meta as the session's
//     initialize params, replacing those of a legacy initialize (its
//     capabilities too, so a client that can show forms is then told it
//     cannot). Discover is stateless by the spec, and its answer depends
//     only on the server and the request's own _meta, so it is served on a
//     sink session that nothing reads: the SDK may write there all it
//     likes and the client's session is untouched. Refusing a discover on
//     a legacy session would be simpler, but it carries modern _meta, and
//     a modern request is answered the modern way.
//
// Modern requests need none of this: the SDK decides their era from their
// own _meta, and takes a session's first one as its params anyway.
func legacySessions(s *mcp.Server) mcp.Middleware {
	sink := sync.OnceValues(func() (*mcp.ServerSession, error) {
		return s.Connect(context.Background(), sinkTransport{}, nil)
	})
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch r := req.(type) {
			case *mcp.ServerRequest[*mcp.InitializeParams]:
				if r.Params != nil {
					r.Params.ProtocolVersion = negotiated(r.Params.ProtocolVersion)
				}
			case *mcp.ServerRequest[*mcp.DiscoverParams]:
				ss, err := sink()
				if err != nil {
					return nil, err
				}
				detached := *r
				detached.Session = ss
				return next(ctx, method, &detached)
			}
			return next(ctx, method, req)
		}
	}
}

// sinkTransport connects a session that never receives anything and
// discards whatever is sent to it.
type sinkTransport struct{}

func (sinkTransport) Connect(context.Context) (mcp.Connection, error) {
	return &sinkConn{closed: make(chan struct{})}, nil
}

type sinkConn struct {
	once   sync.Once
	closed chan struct{}
}

func (c *sinkConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *sinkConn) Write(context.Context, jsonrpc.Message) error { return nil }

func (c *sinkConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *sinkConn) SessionID() string { return "" }
