package e2e

// resources/read of the message preview panel through the real binary over
// stdio, on both generations, with a bare line-oriented client: the SDK
// client would answer modern reads from its own cache (the read is cached
// 300000 ms, public), which measures nothing.
//
//	go test -run '^$' -bench ReadPanel -benchtime 200x ./e2e

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func BenchmarkReadPanel(b *testing.B) {
	apps := `"capabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`
	tests := []struct {
		name, handshake, read string
	}{
		{modern, "", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"` + panelURI + `"}}`},
		{legacy, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",` + apps + `,"clientInfo":{"name":"bench","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + panelURI + `"}}`},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			stdin, out := lineClient(b, docsEnv())
			if tt.handshake != "" {
				_, err := stdin.Write([]byte(tt.handshake + "\n"))
				require.NoError(b, err)
				_, err = out.ReadBytes('\n')
				require.NoError(b, err)
				_, err = stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
				require.NoError(b, err)
			}
			line := []byte(tt.read + "\n")
			for b.Loop() {
				_, err := stdin.Write(line)
				require.NoError(b, err)
				reply, err := out.ReadBytes('\n')
				require.NoError(b, err)
				require.True(b, bytes.Contains(reply, []byte(`"mimeType":"text/html;profile=mcp-app"`)), "%.300s", reply)
				b.SetBytes(int64(len(reply)))
			}
		})
	}
}
