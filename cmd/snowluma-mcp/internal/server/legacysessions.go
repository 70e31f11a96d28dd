package server

import (
	"context"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
)

// legacySessions keeps a legacy session legacy, whatever the client asked
// for or sends later. The SDK decides per session whether to answer tool
// calls in the 2026-07-28 way (resultType, input_required instead of
// elicitation/create) from the version in the stored initialize params.
// Two things put a modern version there:
//
//   - initialize asking for 2026-07-28 or a newer, unknown version: the SDK
//     answers with the newest legacy version but stores the one asked for.
//     The params are rewritten to what is generation.Negotiated before the SDK stores
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
//
// SDK contract tests: TestSDKInitializeStoresTheVersionAskedFor,
// TestSDKDiscoverOverwritesALegacySession.
func legacySessions(s *mcp.Server) mcp.Middleware {
	sink := sync.OnceValues(func() (*mcp.ServerSession, error) {
		return s.Connect(context.Background(), sinkTransport{}, nil)
	})
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch r := req.(type) {
			case *mcp.ServerRequest[*mcp.InitializeParams]:
				if r.Params != nil {
					r.Params.ProtocolVersion = generation.Negotiated(r.Params.ProtocolVersion)
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
