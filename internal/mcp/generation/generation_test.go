package generation

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClientExtensionAgreesWithTheSDKsCapabilities(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		caps string
	}{
		{"no extensions", `{}`},
		{"null extensions", `{"extensions":null}`},
		{"MCP Apps with the HTML profile", `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`},
		{"MCP Apps with another profile", `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/plain"]}}}`},
		{"MCP Apps declared as null", `{"extensions":{"io.modelcontextprotocol/ui":null}}`},
		{"the tasks extension", `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`},
		{"both, beside other capabilities", `{"elicitation":{},"roots":{"listChanged":true},"extensions":{"io.modelcontextprotocol/tasks":{"x":[1,2.5,"y"]},"io.modelcontextprotocol/ui":{"mimeTypes":["a","text/html;profile=mcp-app"]}}}`},
		{"a key that differs only in case", `{"Extensions":{"io.modelcontextprotocol/tasks":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var meta mcp.Meta
			require.NoError(t, json.Unmarshal([]byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":`+tt.caps+`}`), &meta))
			req := &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Meta: meta}}
			caps := req.ClientCapabilities()
			require.NotNil(t, caps)
			for _, key := range []string{AppsExtension, TasksExtension} {
				want, wantOK := caps.Extensions[key]
				got, gotOK := Extension(req, key)
				assert.Equal(t, wantOK, gotOK, key)
				assert.Equal(t, want, got, key)
			}
		})
	}
}

func TestNegotiatedKeepsInitializeLegacy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		requested string
		want      string
	}{
		{"keeps the newest legacy version", "2025-11-25", "2025-11-25"},
		{"keeps an older legacy version the SDK speaks", "2025-06-18", "2025-06-18"},
		{"keeps the oldest legacy version", "2024-11-05", "2024-11-05"},
		{"turns the modern version into the newest legacy one", ModernVersion, "2025-11-25"},
		{"turns an unknown future version into the newest legacy one", "2099-01-01", "2025-11-25"},
		{"turns an unknown past version into the newest legacy one", "2023-01-01", "2025-11-25"},
		{"turns an empty version into the newest legacy one", "", "2025-11-25"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Negotiated(tt.requested))
		})
	}
}

func TestTaskMethodsNeedTheDeclarationOnTheRequestItself(t *testing.T) {
	t.Parallel()
	caps := func(ext map[string]any) map[string]any { return map[string]any{"extensions": ext} }
	tests := []struct {
		name string
		meta mcp.Meta
		want bool
	}{
		{"a modern request declaring the extension", mcp.Meta{ProtocolVersionKey: ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{TasksExtension: map[string]any{}})}, true},
		{"a modern request declaring other extensions", mcp.Meta{ProtocolVersionKey: ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{"io.modelcontextprotocol/ui": map[string]any{}})}, false},
		{"a modern request without capabilities", mcp.Meta{ProtocolVersionKey: ModernVersion}, false},
		{"a legacy version declaring the extension", mcp.Meta{ProtocolVersionKey: "2025-11-25",
			"io.modelcontextprotocol/clientCapabilities": caps(map[string]any{TasksExtension: map[string]any{}})}, false},
		{"no _meta at all", nil, false},
		{"capabilities of the wrong type", mcp.Meta{ProtocolVersionKey: ModernVersion, "io.modelcontextprotocol/clientCapabilities": "tasks"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, MetaDeclaresTasks(tt.meta))
		})
	}
}
