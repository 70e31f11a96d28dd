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

// BenchmarkStdioQueryAction measures the server side of query_action as a
// client sees it on stdio (our transport, the SDK's JSON-RPC handling, the
// pipeline and the HTTP call), with a bare line client instead of the SDK's.
func BenchmarkStdioQueryAction(b *testing.B) {
	u, _ := url.Parse(loopback(b).URL)
	s := New(options(b, &config.Config{Mode: config.ModeRead, Endpoint: u, Timeout: time.Minute, MaxStreams: 4, StreamConnectTimeout: time.Second}))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = s.Run(context.Background(), &stdio.Transport{In: inR, Out: outW}) }()
	out := bufio.NewReader(outR)
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"query_action","arguments":{"action":"get_status"}}}` + "\n")
	for b.Loop() {
		_, err := inW.Write(line)
		require.NoError(b, err)
		reply, err := out.ReadBytes('\n')
		require.NoError(b, err)
		require.True(b, bytes.Contains(reply, []byte(`"outcome":"success"`)), "%s", reply)
	}
}
