package e2e

// A request of 100,000 unknown keys through the real binary over stdio
// with the bare line client (issue 49's hostile audit: seconds and a reply
// of megabytes before). The figure is the server's whole path, the
// arguments stage's schema check and the params stage's refusal included.
//
//	go test -run '^$' -bench 'ManyKeys' ./e2e/

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// manyKeysCall is query_action get_group_info with n junk keys beside its
// group_id, as the arguments of one tools/call.
func manyKeysCall(n int) string {
	var b strings.Builder
	b.WriteString(`"name":"query_action","arguments":{"action":"get_group_info","params":{"group_id":1`)
	for i := range n {
		fmt.Fprintf(&b, `,"junk_key_%07d":1`, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

// oneLongValueCall is the same size of request with one unknown key whose
// value is a long string: what any request of that size costs the
// transport (the SDK reads and decodes the line), keys aside.
func oneLongValueCall(n int) string {
	return `"name":"query_action","arguments":{"action":"get_group_info","params":{"group_id":1,"zz":"` + strings.Repeat("x", n) + `"}}`
}

func BenchmarkBinaryManyKeysRaw(b *testing.B) {
	benchRefused(b, manyKeysCall(100000))
}

func BenchmarkBinaryOneLongValueRaw(b *testing.B) {
	benchRefused(b, oneLongValueCall(len(manyKeysCall(100000))))
}

// benchRefused sends one tools/call that the params stage refuses.
func benchRefused(b *testing.B, call string) {
	stdin, out := lineClient(b, readEnv())
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},` + call + `}}` + "\n")
	b.SetBytes(int64(len(line)))
	var reply []byte
	for b.Loop() {
		_, err := stdin.Write(line)
		require.NoError(b, err)
		reply, err = out.ReadBytes('\n')
		require.NoError(b, err)
		require.True(b, bytes.Contains(reply, []byte(`invalid_argument`)), "%.400s", reply)
	}
	b.ReportMetric(float64(len(reply)), "reply-bytes")
}
