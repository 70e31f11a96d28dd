package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/payload"
)

// Some answers never change for the life of the process, yet building them
// cost far more than sending them:
//
//   - tools/list (about 21 KB in write mode): the SDK copies the registered
//     tools, appsGate and tasks.Gate copy them again, legacyShapes re-encodes
//     the whole list twice, and the SDK encodes it once more. It depends
//     only on the process's fixed setup (mode, features, registered tools)
//     and on three facts of the request: its generation, whether its client
//     renders MCP Apps, and whether it may use the tasks extension.
//   - resources/read of the catalog (470 KB) and of the panel (240 KB):
//     each read copied the text and escaped it into a fresh JSON string,
//     several megabytes of garbage per catalog read, which is most of what
//     an idle server's heap had grown to. They depend only on the
//     generation.
//
// So each such answer is built the ordinary way once per variant, encoded,
// and served as those bytes from then on.

// variant is what, besides the process's fixed setup, a cached answer
// depends on: the method, the resource read (for reads), the request's
// generation, and for tools/list whether the client renders MCP Apps and
// may use the tasks extension. A read also depends on the session's
// generation: the SDK marks a read result complete when the session
// (not the request) is of the 2026-07-28 protocol.
type variant struct {
	method, uri         string
	modern, apps, tasks bool
	modernSession       bool
}

// variantOf is the variant of req when its answer is cached, decided by
// the same rules as the middleware that shapes the answer (generation.Modern,
// generation.Apps, generation.Tasks); ok is false for any other request. A
// tools/list with a cursor (a later page, or an invalid one) is not
// cached.
func variantOf(method string, req mcp.Request, static map[string]bool) (variant, bool) {
	switch r := req.(type) {
	case *mcp.ListToolsRequest:
		if method != "tools/list" || (r.Params != nil && r.Params.Cursor != "") {
			return variant{}, false
		}
		return variant{method: method, modern: generation.Modern(req), apps: generation.Apps(req), tasks: generation.Tasks(req)}, true
	case *mcp.ReadResourceRequest:
		if method != "resources/read" || r.Params == nil || !static[r.Params.URI] {
			return variant{}, false
		}
		return variant{method: method, uri: r.Params.URI, modern: generation.Modern(req), modernSession: generation.ModernSession(r.Session)}, true
	}
	return variant{}, false
}

// encodedResult is a result already encoded. Its _meta is what the SDK
// reads to decide whether to add serverInfo to a modern answer: the
// encoding has it already, so the SDK leaves it alone, and for a legacy
// answer the SDK does not look. It marshals to wire: the encoding itself,
// or a reference to it that the Wire expands.
type encodedResult struct {
	mcp.ResultBase
	wire json.RawMessage
}

func (r *encodedResult) MarshalJSON() ([]byte, error) { return r.wire, nil }

// cachedResults serves tools/list, and resources/read of the URIs in
// static, from encodings made once per variant. It must sit outside every
// middleware that shapes those answers, so that what it stores is what
// they make. The registered tools and static resources never change once
// New returns; if that ever changes, this cache must be dropped on every
// change.
//
// With a book (the Wire's) the answers go out by reference.
func cachedResults(impl *mcp.Implementation, book *answerBook, static map[string]bool) mcp.Middleware {
	var (
		mu      sync.Mutex
		answers = map[variant]*encodedResult{}
	)
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			v, ok := variantOf(method, req, static)
			if !ok {
				return next(ctx, method, req)
			}
			mu.Lock()
			enc := answers[v]
			mu.Unlock()
			if enc != nil {
				return enc, nil
			}
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			enc, err = encodeAnswer(res, v.modern, impl)
			if err != nil {
				return nil, err
			}
			if enc == nil {
				return res, nil // a shape this cache does not know: not stored
			}
			enc.wire = book.ref(enc.wire)
			mu.Lock()
			answers[v] = enc
			mu.Unlock()
			return enc, nil
		}
	}
}

// encodeAnswer encodes an answer exactly as the SDK would send it. For a
// modern request the SDK names the server in its _meta after every
// middleware has run, and marks a list result complete; both are done
// here, on a copy, since the SDK will not do them to an encodedResult (it
// sees serverInfo already there). A read result has been marked, or not,
// inside the SDK already, and the copy keeps that. A legacy answer is what
// legacyShapes made. It returns nil for a result of any other shape, or
// one that asks for input. SDK contract test:
// TestSDKAddsServerInfoAndResultTypeAfterTheMiddleware.
func encodeAnswer(res mcp.Result, modern bool, impl *mcp.Implementation) (*encodedResult, error) {
	var meta mcp.Meta
	switch r := res.(type) {
	case *mcp.ListToolsResult:
		if !modern || r.NextCursor != "" {
			return nil, nil
		}
		cp := *r
		cp.ResultType = "complete"
		cp.Meta = withServerInfo(r.Meta, impl)
		meta, res = cp.Meta, &cp
	case *mcp.ReadResourceResult:
		if !modern || r.NeedsInput() || r.InputRequests != nil || r.RequestState != "" {
			return nil, nil
		}
		cp := *r
		cp.Meta = withServerInfo(r.Meta, impl)
		meta, res = cp.Meta, &cp
	case *legacyResult:
		if modern {
			return nil, nil
		}
		meta = r.Meta
	case *legacyRead:
		if modern {
			return nil, nil
		}
		meta = r.Meta
	default:
		return nil, nil
	}
	raw, err := payload.Encode(res)
	if err != nil {
		return nil, err
	}
	return &encodedResult{ResultBase: mcp.ResultBase{Meta: meta}, wire: raw}, nil
}

// withServerInfo is a copy of meta naming the server, as the SDK names it
// in every modern answer unless the answer already does.
func withServerInfo(meta mcp.Meta, impl *mcp.Implementation) mcp.Meta {
	out := mcp.Meta{}
	for k, v := range meta {
		out[k] = v
	}
	if _, ok := out[mcp.MetaKeyServerInfo]; !ok {
		out[mcp.MetaKeyServerInfo] = impl
	}
	return out
}

// answerBook turns cached encodings into references and back. The SDK
// re-encodes every result, and encoding/json checks and compacts whatever a
// MarshalJSON method returns byte by byte: for the 21 KB tools/list that
// was half of the server's time per request, spent re-reading bytes that
// never change. So an encodedResult marshals to a short reference, and the
// Wire, which sees every response on its way out, writes the bytes it
// stands for in its place. The reference carries a nonce drawn at start,
// so no other result can be mistaken for one. SDK contract test:
// TestSDKReencodesAResultsOwnEncoding.
type answerBook struct {
	prefix string // `{"snowluma-mcp/encoded":"<nonce>-`

	mu    sync.RWMutex
	byRef map[string]json.RawMessage
}

func newAnswerBook() *answerBook {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce) // never fails (crypto/rand)
	return &answerBook{
		prefix: `{"snowluma-mcp/encoded":"` + hex.EncodeToString(nonce) + `-`,
		byRef:  map[string]json.RawMessage{},
	}
}

// ref registers raw and returns the reference that stands for it. On a
// nil book it is raw itself.
func (b *answerBook) ref(raw json.RawMessage) json.RawMessage {
	if b == nil {
		return raw
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.prefix + strconv.Itoa(len(b.byRef)) + `"}`
	b.byRef[r] = raw
	return json.RawMessage(r)
}

// expand returns the bytes a reference stands for, and any other result
// as it is.
func (b *answerBook) expand(result json.RawMessage) json.RawMessage {
	if len(result) > len(b.prefix)+24 || !bytes.HasPrefix(result, []byte(b.prefix)) {
		return result
	}
	b.mu.RLock()
	raw, ok := b.byRef[string(result)]
	b.mu.RUnlock()
	if !ok {
		return result
	}
	return raw
}
