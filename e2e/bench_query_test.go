package e2e

// query_action through the real binary over stdio against the shared fake,
// beside the same OneBot request sent directly: the ratio is what an agent
// pays for going through snowluma-mcp.
//
//	go test -run '^$' -bench 'QueryAction|DirectHTTP' ./e2e/

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// BenchmarkBinaryQueryAction calls query_action get_status over stdio.
func BenchmarkBinaryQueryAction(b *testing.B) {
	cs, _, _ := connect(b, modern, readEnv())
	b.Cleanup(func() { _ = cs.Close() })
	params := &mcp.CallToolParams{Name: "query_action", Arguments: map[string]any{"action": "get_status"}}
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), params)
		require.NoError(b, err)
		require.False(b, res.IsError)
	}
}

// BenchmarkDirectHTTPToFake sends the same request straight to the fake.
func BenchmarkDirectHTTPToFake(b *testing.B) {
	body := []byte(`{"action":"get_status","params":{}}`)
	client := &http.Client{}
	for b.Loop() {
		req, err := http.NewRequest(http.MethodPost, snow.URL(), bytes.NewReader(body))
		require.NoError(b, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		require.NoError(b, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// BenchmarkBinaryQueryActionRaw is BenchmarkBinaryQueryAction with a bare
// line-oriented client instead of the SDK client, so the figure is the
// server's cost plus the pipe, not the client library's.
func BenchmarkBinaryQueryActionRaw(b *testing.B) {
	benchToolCall(b, `"name":"query_action","arguments":{"action":"get_status"}`)
}

// BenchmarkBinaryGetActionRaw is a docs call (get_action) through the
// binary with the same bare client: no HTTP at all, so its figure is the
// floor every call pays for stdio, the SDK and the pipeline, to read beside
// BenchmarkBinaryQueryActionRaw.
func BenchmarkBinaryGetActionRaw(b *testing.B) {
	benchToolCall(b, `"name":"get_action","arguments":{"name":"get_status"}`)
}

// benchToolCall sends one modern tools/call per op to a read-mode binary,
// with call (its name and arguments members) as the params, and requires a
// successful outcome.
func benchToolCall(b *testing.B, call string) {
	stdin, out := lineClient(b, readEnv())
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},` + call + `}}` + "\n")
	for b.Loop() {
		_, err := stdin.Write(line)
		require.NoError(b, err)
		reply, err := out.ReadBytes('\n')
		require.NoError(b, err)
		require.True(b, bytes.Contains(reply, []byte(`"outcome":"success"`)), "%s", reply)
	}
}

// lineClient starts the binary with env and returns its stdin and a reader
// of its stdout, for benchmarks that speak JSON-RPC lines themselves.
func lineClient(b *testing.B, env map[string]string) (io.Writer, *bufio.Reader) {
	cmd := exec.Command(binary)
	cmd.Env = environ(env)
	stdin, err := cmd.StdinPipe()
	require.NoError(b, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(b, err)
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	return stdin, bufio.NewReaderSize(stdout, 1<<20)
}
