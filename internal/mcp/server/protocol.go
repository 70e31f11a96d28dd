package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// ModernVersion is the first protocol revision without initialize.
const ModernVersion = "2026-07-28"

// Cache lifetimes from the product's cache table (CACHE-1).
const staticTTL = 300_000

// cacheHints returns the hook that sets the cache hints of list and read
// results. Tool calls never get any. The hints are advice to clients;
// nothing here caches.
func cacheHints(events bool) func(context.Context, mcp.Request, *mcp.Cacheable) {
	return func(ctx context.Context, req mcp.Request, c *mcp.Cacheable) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			// Private: the mode decides which tools exist, and the client's
			// MCP Apps support whether they carry UI metadata (appsGate).
			c.TTLMs, c.CacheScope = staticTTL, "private"
		case *mcp.ListResourcesRequest:
			// Private: only MCP Apps clients see the panel (appsGate).
			c.TTLMs, c.CacheScope = staticTTL, "private"
			if events {
				// Event resources come and go with every subscription.
				c.TTLMs = 0
			}
		case *mcp.ListResourceTemplatesRequest:
			c.TTLMs, c.CacheScope = staticTTL, "public"
		case *mcp.ReadResourceRequest:
			// Bundled static data (the catalog, the message preview panel)
			// unless it is an event resource.
			c.TTLMs, c.CacheScope = staticTTL, "public"
			if r.Params != nil && strings.HasPrefix(r.Params.URI, hub.URIPrefix) {
				// Live, and one account's private messages.
				c.TTLMs, c.CacheScope = 0, "private"
			}
		}
	}
}

// isModern reports whether req follows the 2026-07-28 protocol, which the
// SDK decides per request from _meta.
func isModern(req mcp.Request) bool {
	p := req.GetParams()
	if p == nil {
		return false
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return false // the SDK passes typed nils for omitted params
	}
	return modernMeta(p.GetMeta())
}

// modernMeta reports whether a request's _meta names a 2026-07-28 (or
// later) protocol version: the one rule for a request's era.
func modernMeta(meta map[string]any) bool {
	v, _ := meta[protocolVersionKey].(string)
	return v >= ModernVersion
}

// legacyShapes removes the modern-only cache fields from results sent to
// legacy clients; the SDK always emits them.
func legacyShapes(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil || isModern(req) {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ReadResourceResult:
			// Reads carry the whole catalog (470 KB): build the legacy shape
			// directly rather than re-encoding it twice.
			return &legacyRead{ResultBase: mcp.ResultBase{Meta: r.Meta}, Contents: r.Contents}, nil
		case *mcp.ListToolsResult, *mcp.ListResourcesResult, *mcp.ListResourceTemplatesResult:
			return stripped(res, "ttlMs", "cacheScope", "resultType")
		}
		return res, nil
	}
}

// legacyRead is a resources/read result without the modern cache fields.
type legacyRead struct {
	mcp.ResultBase
	Contents []*mcp.ResourceContents `json:"contents"`
}

// legacyResult is a result re-encoded without some fields.
type legacyResult struct {
	mcp.ResultBase
	raw json.RawMessage
}

func (r *legacyResult) MarshalJSON() ([]byte, error) { return r.raw, nil }

func stripped(res mcp.Result, keys ...string) (mcp.Result, error) {
	data, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for _, k := range keys {
		delete(m, k)
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return &legacyResult{raw: raw}, nil
}

// recoverMethods keeps a panic in any method handler from killing the
// process; tool calls already recover inside their pipeline, so this only
// catches what lies outside it.
func recoverMethods(log io.Writer) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(log, "snowluma-mcp recovered a panic in method=%s\n", method)
					res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}
				}
			}()
			return next(ctx, method, req)
		}
	}
}

// OwesAnswer is the stdio transport's hook for the answers owed at stdin
// EOF. A subscriptions/listen stream ends only when the client cancels it
// or the session ends, so waiting for its answer would hold every exit for
// the transport's full drain bound; every other call ends on its own.
func OwesAnswer(method string) bool { return method != "subscriptions/listen" }
