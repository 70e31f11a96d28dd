package e2e

// tools/list through the real binary over stdio, with a bare line client
// (the figure is the server's cost plus the pipe, not a client library's),
// on both protocol generations and in write mode, which lists the most
// tools.
//
//	go test -run '^$' -bench BinaryToolsList ./e2e/

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func BenchmarkBinaryToolsList(b *testing.B) {
	for _, version := range versions {
		b.Run(version, func(b *testing.B) {
			stdin, out := lineClient(b, writeEnv())
			line := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}` + "\n")
			if version == modern {
				line = []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n")
			} else {
				_, err := stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"))
				require.NoError(b, err)
				reply, err := out.ReadBytes('\n')
				require.NoError(b, err)
				require.Contains(b, string(reply), `"protocolVersion":"`+version+`"`)
				_, err = stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
				require.NoError(b, err)
			}
			var size int
			for b.Loop() {
				_, err := stdin.Write(line)
				require.NoError(b, err)
				reply, err := out.ReadBytes('\n')
				require.NoError(b, err)
				require.True(b, bytes.Contains(reply, []byte(`"name":"invoke_action"`)), "%.300s", reply)
				size = len(reply)
			}
			b.ReportMetric(float64(size), "reply-bytes")
		})
	}
}
