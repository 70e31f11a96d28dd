package server

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/uiasset"
)

// BenchmarkReadPanelInMemory reads the built panel through the server with
// an in-memory SDK client: the server's and the SDK's share of a read. Only
// the legacy generation: a modern SDK client answers repeated reads from
// its cache (the panel is cached 300000 ms, public) and would measure
// nothing; e2e's BenchmarkReadPanel covers both over stdio.
//
//	go test -run '^$' -bench ReadPanelInMemory ./server
func BenchmarkReadPanelInMemory(b *testing.B) {
	html, err := uiasset.HTML()
	require.NoError(b, err, "the committed panel is missing: git checkout -- uiasset/dist/index.html")
	cs := panelClient(b, "2025-11-25", capsWith(map[string]any{"mimeTypes": []string{uiasset.MIMEType}}), html)
	params := &mcp.ReadResourceParams{URI: uiasset.URI}
	for b.Loop() {
		_, err := cs.ReadResource(context.Background(), params)
		require.NoError(b, err)
	}
}
