package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/mcp/stdio"
)

// BenchmarkStdioToolsList measures tools/list as a stdio client sees it,
// in process: our transport, the SDK's JSON-RPC handling, our middleware
// and the encoding of the write-mode list, on both protocol generations.
func BenchmarkStdioToolsList(b *testing.B) {
	for _, c := range []struct {
		name  string
		setup []string
		list  string
	}{
		{"modern", nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`},
		{"legacy", []string{
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		}, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			u, _ := url.Parse("http://127.0.0.1:1")
			s := New(options(b, &config.Config{Mode: config.ModeWrite, Endpoint: u, Timeout: time.Minute, MaxStreams: 4, StreamConnectTimeout: time.Second}))
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			go func() { _ = s.Run(context.Background(), &stdio.Transport{In: inR, Out: outW}) }()
			b.Cleanup(func() { _ = inW.Close() })
			out := bufio.NewReaderSize(outR, 1<<20)
			for i, l := range c.setup {
				_, err := inW.Write([]byte(l + "\n"))
				require.NoError(b, err)
				if i == 0 {
					_, err = out.ReadBytes('\n')
					require.NoError(b, err)
				}
			}
			line := []byte(c.list + "\n")
			b.ReportAllocs()
			for b.Loop() {
				_, err := inW.Write(line)
				require.NoError(b, err)
				reply, err := out.ReadBytes('\n')
				require.NoError(b, err)
				require.True(b, bytes.Contains(reply, []byte(`"query_action"`)), "%s", reply)
			}
		})
	}
}
