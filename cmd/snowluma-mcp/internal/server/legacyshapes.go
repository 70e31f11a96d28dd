package server

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
)

// legacyShapes removes the modern-only cache fields from results sent to
// legacy clients; the SDK always emits them (SDK contract test:
// TestSDKCacheFieldsAreAlwaysEncoded).
func legacyShapes(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil || generation.Modern(req) {
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
