package server

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/uiasset"
)

// addPanel serves the message preview panel. Its bytes are fixed for the
// life of the binary, so the read carries the public static cache hint
// (cacheHints).
func addPanel(s *mcp.Server, html string) {
	s.AddResource(&mcp.Resource{
		URI: uiasset.URI, Name: "message-preview", Title: "Message preview panel",
		Description: "消息预览面板（MCP App）：显示 preview_message 的草稿，点击后经宿主调用 invoke_action 发送。",
		MIMEType:    uiasset.MIMEType, Size: int64(len(html)),
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: uiasset.URI, MIMEType: uiasset.MIMEType, Text: html,
		}}}, nil
	})
}

// appsGate shows UI metadata and UI resources only to clients that can
// render them: everyone else gets the same tools without _meta.ui and a
// resource list without ui:// resources. The lists therefore vary with the
// client, which is why their cache scope is private (cacheHints). Reading a
// ui:// resource is not gated: it reveals nothing a client could misuse.
func appsGate(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil {
			return res, err
		}
		switch res.(type) {
		case *mcp.ListToolsResult, *mcp.ListResourcesResult:
		default:
			return res, nil // decoding a modern request's capabilities is not free
		}
		if generation.Apps(req) {
			return res, nil
		}
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			out := *r
			out.Tools = make([]*mcp.Tool, len(r.Tools))
			for i, t := range r.Tools {
				out.Tools[i] = withoutUI(t)
			}
			return &out, nil
		case *mcp.ListResourcesResult:
			out := *r
			out.Resources = slices.DeleteFunc(slices.Clone(r.Resources), func(res *mcp.Resource) bool {
				return strings.HasPrefix(res.URI, "ui://")
			})
			return &out, nil
		}
		return res, nil
	}
}

// withoutUI returns t without its MCP Apps _meta keys, copying rather than
// editing: the SDK hands out the registered tool itself (SDK contract test:
// TestSDKListsTheRegisteredToolsThemselves).
func withoutUI(t *mcp.Tool) *mcp.Tool {
	if t.Meta["ui"] == nil && t.Meta["ui/resourceUri"] == nil {
		return t
	}
	c := *t
	c.Meta = mcp.Meta{}
	for k, v := range t.Meta {
		if k != "ui" && k != "ui/resourceUri" {
			c.Meta[k] = v
		}
	}
	if len(c.Meta) == 0 {
		c.Meta = nil
	}
	return &c
}
