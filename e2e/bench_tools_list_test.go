package e2e

// tools/list through the real binary over stdio with a bare line client,
// on both protocol generations, in write mode (the longest list).
//
//	go test -run '^$' -bench BinaryToolsListRaw -benchtime 2000x ./e2e/

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkBinaryToolsListRaw lists the tools over stdio, once per op, and
// reports the reply's size as reply-bytes.
func BenchmarkBinaryToolsListRaw(b *testing.B) {
	for _, c := range []struct {
		version string
		setup   []string
		list    string
	}{
		{modern, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`},
		{legacy, []string{
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		}, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
	} {
		b.Run(c.version, func(b *testing.B) {
			stdin, out := lineClient(b, writeEnv())
			for i, l := range c.setup {
				_, err := stdin.Write([]byte(l + "\n"))
				require.NoError(b, err)
				if i == 0 {
					_, err = out.ReadBytes('\n')
					require.NoError(b, err)
				}
			}
			line := []byte(c.list + "\n")
			var size int
			for b.Loop() {
				_, err := stdin.Write(line)
				require.NoError(b, err)
				reply, err := out.ReadBytes('\n')
				require.NoError(b, err)
				require.True(b, bytes.Contains(reply, []byte(`"query_action"`)), "%s", reply)
				size = len(reply)
			}
			b.ReportMetric(float64(size), "reply-bytes")
		})
	}
}
