package server

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/uiasset"
)

// BenchmarkReadPanelInMemory reads the built panel through the server with
// an in-memory client, per generation: the server's share of a read.
//
//	go test -run '^$' -bench ReadPanelInMemory ./server
func BenchmarkReadPanelInMemory(b *testing.B) {
	html, err := uiasset.HTML()
	require.NoError(b, err, "build the panel first: make build")
	for _, v := range generations {
		b.Run(v, func(b *testing.B) {
			cs := panelClient(b, v, capsWith(map[string]any{"mimeTypes": []string{uiasset.MIMEType}}), html)
			params := &mcp.ReadResourceParams{URI: uiasset.URI}
			for b.Loop() {
				_, err := cs.ReadResource(context.Background(), params)
				require.NoError(b, err)
			}
		})
	}
}
