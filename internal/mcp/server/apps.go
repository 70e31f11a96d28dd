package server

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/uiasset"
)

// appsExtension is the MCP Apps extension a client advertises, in legacy
// initialize capabilities or in a modern request's clientCapabilities.
const appsExtension = "io.modelcontextprotocol/ui"

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

// requestSupportsApps reports whether req's client advertises MCP Apps
// with the HTML profile; an extension entry without that MIME type is a
// host that renders something else.
func requestSupportsApps(req mcp.Request) bool {
	v, _ := clientExtension(req, appsExtension)
	return rendersApps(v)
}

// rendersApps reports whether an MCP Apps extension declaration lists the
// HTML profile.
func rendersApps(decl any) bool {
	ext, ok := decl.(map[string]any)
	if !ok {
		return false
	}
	switch types := ext["mimeTypes"].(type) {
	case []any:
		return slices.Contains(types, any(uiasset.MIMEType))
	case []string:
		return slices.Contains(types, uiasset.MIMEType)
	}
	return false
}

// capabilityReader is every server request: legacy capabilities come from
// the session's initialize, modern ones from the request's _meta.
type capabilityReader interface {
	ClientCapabilities() *mcp.ClientCapabilities
}

// clientCapabilitiesKey is the _meta key of a modern request's client
// capabilities.
const clientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"

// clientExtension returns what req's client declares for the extension
// key, and whether it declares it at all. ClientCapabilities would give the
// same answer, but for a modern request it decodes the whole declaration
// again (a JSON round trip through a fresh 32 KiB decoder buffer) on every
// call; the SDK has already checked that a modern request's declaration
// decodes, so its extensions object is read from _meta as it is, which is
// exactly what decoding would produce. Legacy requests ask the SDK, which
// answers from the session's initialize.
func clientExtension(req mcp.Request, key string) (any, bool) {
	if isModern(req) {
		caps, _ := req.GetParams().GetMeta()[clientCapabilitiesKey].(map[string]any)
		ext, _ := caps["extensions"].(map[string]any)
		v, ok := ext[key]
		return v, ok
	}
	cr, ok := req.(capabilityReader)
	if !ok {
		return nil, false
	}
	c := cr.ClientCapabilities()
	if c == nil {
		return nil, false
	}
	v, ok := c.Extensions[key]
	return v, ok
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
		if requestSupportsApps(req) {
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
// editing: the SDK hands out the registered tool itself.
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
