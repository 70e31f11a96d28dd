package server

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools/list answer is the largest frequent reply (about 21 KB in write
// mode), and building it cost far more than sending it: the SDK copies the
// registered tools, appsGate and taskTools copy them again, legacyShapes
// re-encodes the whole list twice, and the SDK encodes it once more. Yet it
// depends only on things fixed for the life of the process (the mode, the
// features, the registered tools) and on three per-request facts: the
// request's generation, whether its client renders MCP Apps, and whether it
// may use the tasks extension. So the answer is built the ordinary way once
// per combination of those three, encoded, and served as those bytes from
// then on.

// listVariant is what, besides the process's fixed setup, a tools/list
// answer depends on.
type listVariant struct {
	modern, apps, tasks bool
}

// variantOf is the listVariant of req, decided by the same rules the
// middleware that shapes the list applies (isModern, supportsApps,
// withTasks).
func variantOf(req mcp.Request) listVariant {
	return listVariant{modern: isModern(req), apps: requestSupportsApps(req), tasks: withTasks(req)}
}

// encodedResult is a result already encoded. Its _meta is what the SDK
// reads to decide whether to add serverInfo to a modern answer: the
// encoding has it already, so the SDK leaves it alone, and for a legacy
// answer the SDK does not look. It marshals to wire: the encoding itself,
// or a reference to it that the transport expands (Encodings).
type encodedResult struct {
	mcp.ResultBase
	wire json.RawMessage
}

func (r *encodedResult) MarshalJSON() ([]byte, error) { return r.wire, nil }

// cachedToolLists serves tools/list from encodings made once per
// listVariant. It must sit outside every middleware that shapes the list,
// so that what it stores is what they make. A request with a cursor (a
// later page, or an invalid one) takes the ordinary path. The registered
// tools never change once New returns; if that ever changes, this cache
// must be dropped on every change.
//
// With encodings the answers go out by reference (Encodings).
func cachedToolLists(impl *mcp.Implementation, encodings *Encodings) mcp.Middleware {
	var (
		mu    sync.Mutex
		lists = map[listVariant]*encodedResult{}
	)
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			lr, ok := req.(*mcp.ListToolsRequest)
			if method != "tools/list" || !ok || (lr.Params != nil && lr.Params.Cursor != "") {
				return next(ctx, method, req)
			}
			v := variantOf(req)
			mu.Lock()
			enc := lists[v]
			mu.Unlock()
			if enc != nil {
				return enc, nil
			}
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			enc, err = encodeList(res, v.modern, impl)
			if err != nil {
				return nil, err
			}
			if enc == nil {
				return res, nil // a shape this cache does not know: not stored
			}
			if encodings != nil {
				enc.wire = encodings.ref(enc.wire)
			}
			mu.Lock()
			lists[v] = enc
			mu.Unlock()
			return enc, nil
		}
	}
}

// encodeList encodes a tools/list answer exactly as the SDK would send it.
// For a modern request the SDK marks an SDK result complete and names the
// server in its _meta after every middleware has run; both are done here,
// on a copy, since the SDK will not do them to an encodedResult (it sees
// serverInfo already there). A legacy answer is what legacyShapes made. It
// returns nil for a result of any other shape.
func encodeList(res mcp.Result, modern bool, impl *mcp.Implementation) (*encodedResult, error) {
	var meta mcp.Meta
	switch r := res.(type) {
	case *mcp.ListToolsResult:
		if !modern || r.NextCursor != "" {
			return nil, nil
		}
		cp := *r
		cp.ResultType = "complete"
		cp.Meta = mcp.Meta{}
		for k, v := range r.Meta {
			cp.Meta[k] = v
		}
		if _, ok := cp.Meta[mcp.MetaKeyServerInfo]; !ok {
			cp.Meta[mcp.MetaKeyServerInfo] = impl
		}
		meta, res = cp.Meta, &cp
	case *legacyResult:
		if modern {
			return nil, nil
		}
		meta = r.Meta
	default:
		return nil, nil
	}
	raw, err := marshalLikeSDK(res)
	if err != nil {
		return nil, err
	}
	return &encodedResult{ResultBase: mcp.ResultBase{Meta: meta}, wire: raw}, nil
}

// marshalLikeSDK encodes v as the SDK's JSON-RPC layer encodes results:
// without HTML escaping.
func marshalLikeSDK(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
