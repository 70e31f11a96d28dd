package server

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/uiasset"
)

const testPanel = "<!doctype html><title>panel</title>"

// appsClient connects an in-memory client declaring caps to a docs-mode
// server that has a panel.
func appsClient(t testing.TB, version string, caps *mcp.ClientCapabilities) *mcp.ClientSession {
	t.Helper()
	return panelClient(t, version, caps, testPanel)
}

// panelClient is appsClient with a given panel.
func panelClient(t testing.TB, version string, caps *mcp.ClientCapabilities, panel string) *mcp.ClientSession {
	t.Helper()
	o := options(t, &config.Config{Mode: config.ModeDocs, Timeout: time.Second})
	o.Panel = panel
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := New(o).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{Capabilities: caps}).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func capsWith(ext map[string]any) *mcp.ClientCapabilities {
	c := &mcp.ClientCapabilities{}
	if ext != nil {
		c.AddExtension(generation.AppsExtension, ext)
	}
	return c
}

func TestAppsGateShowsThePanelOnlyToAppsClients(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		caps   *mcp.ClientCapabilities
		seesUI bool
	}{
		{"an MCP Apps client with the HTML profile sees the panel", capsWith(map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}), true},
		{"a client listing other MIME types too still sees it", capsWith(map[string]any{"mimeTypes": []string{"text/plain", "text/html;profile=mcp-app"}}), true},
		{"a client without the extension does not", capsWith(nil), false},
		{"an extension without the HTML profile does not", capsWith(map[string]any{"mimeTypes": []string{"text/html"}}), false},
		{"an extension without mimeTypes does not", capsWith(map[string]any{}), false},
	}
	for _, tt := range tests {
		for _, v := range generations {
			t.Run(tt.name+"/"+v, func(t *testing.T) {
				t.Parallel()
				cs := appsClient(t, v, tt.caps)
				ctx := context.Background()
				tools, err := cs.ListTools(ctx, nil)
				require.NoError(t, err)
				var preview *mcp.Tool
				for _, tl := range tools.Tools {
					if tl.Name == "preview_message" {
						preview = tl
					} else {
						assert.Nil(t, tl.Meta["ui"], "%s has no panel", tl.Name)
					}
				}
				require.NotNil(t, preview, "preview_message exists for every client")
				resources, err := cs.ListResources(ctx, nil)
				require.NoError(t, err)
				var uris []string
				for _, r := range resources.Resources {
					uris = append(uris, r.URI)
				}
				if tt.seesUI {
					assert.Equal(t, map[string]any{"resourceUri": uiasset.URI}, preview.Meta["ui"])
					assert.Equal(t, uiasset.URI, preview.Meta["ui/resourceUri"])
					assert.Contains(t, uris, uiasset.URI)
				} else {
					assert.NotContains(t, preview.Meta, "ui")
					assert.NotContains(t, preview.Meta, "ui/resourceUri")
					assert.NotContains(t, uris, uiasset.URI)
				}
				assert.Contains(t, uris, catalogURI, "the catalog is listed for everyone")
				if v == generation.ModernVersion {
					assert.Equal(t, "private", tools.CacheScope, "the tool list varies with the client")
					assert.Equal(t, "private", resources.CacheScope, "the resource list varies with the client")
				}
			})
		}
	}
}

func TestAppsGateLeavesTheRegisteredToolAlone(t *testing.T) {
	t.Parallel()
	tool := withoutUI(&mcp.Tool{Name: "x", Meta: mcp.Meta{"ui": map[string]any{"resourceUri": uiasset.URI}, "ui/resourceUri": uiasset.URI, "other": 1}})
	assert.Equal(t, mcp.Meta{"other": 1}, tool.Meta, "other _meta keys stay")
	orig := &mcp.Tool{Name: "y", Meta: mcp.Meta{"ui": map[string]any{}}}
	_ = withoutUI(orig)
	assert.Contains(t, orig.Meta, "ui", "the original is not edited")
}

func TestReadPanelResource(t *testing.T) {
	t.Parallel()
	for _, v := range generations {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			cs := appsClient(t, v, capsWith(map[string]any{"mimeTypes": []string{uiasset.MIMEType}}))
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uiasset.URI})
			require.NoError(t, err)
			require.Len(t, res.Contents, 1)
			assert.Equal(t, "text/html;profile=mcp-app", res.Contents[0].MIMEType)
			assert.Equal(t, testPanel, res.Contents[0].Text)
			if v == generation.ModernVersion {
				assert.Equal(t, mcp.Cacheable{TTLMs: 300000, CacheScope: "public"}, res.Cacheable)
			} else {
				assert.Equal(t, mcp.Cacheable{}, res.Cacheable, "legacy replies carry no cache hints")
			}
		})
	}
}
