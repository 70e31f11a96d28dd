package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// BenchmarkStart measures, in process, what the binary does from main to
// the answer of a first tools/list and back out: configuration, catalog,
// panel, parts, server assembly, the list, shutdown. Process start and
// package initialisation are not in it (GODEBUG=inittrace=1 shows those);
// BenchmarkColdStart in e2e has everything.
func BenchmarkStart(b *testing.B) {
	for _, mode := range []string{"docs", "write"} {
		b.Run(mode, func(b *testing.B) {
			env := map[string]string{"SNOWLUMA_MCP_MODE": mode, "SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:1", "HOME": b.TempDir()}
			list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n"
			b.ReportAllocs()
			for b.Loop() {
				var out bytes.Buffer
				if code := run(strings.NewReader(list), &out, io.Discard, func(k string) string { return env[k] }, nil); code != 0 || !strings.Contains(out.String(), `"tools"`) {
					b.Fatal(code, out.String())
				}
			}
		})
	}
}

// BenchmarkIdleSession runs, in process, the session BenchmarkIdleRSS in
// e2e runs before it reads the resident set: start, a tools/list, a
// catalog read, list_actions, get_action and query_action (against an
// unreachable endpoint here), then EOF. Its B/op is the garbage such a
// session leaves for the collector.
func BenchmarkIdleSession(b *testing.B) {
	env := map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:1", "HOME": b.TempDir()}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	session := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{` + meta + `,"uri":"snowluma://onebot/actions"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{` + meta + `,"name":"list_actions","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{` + meta + `,"name":"get_action","arguments":{"name":"send_group_msg"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{` + meta + `,"name":"query_action","arguments":{"action":"get_status"}}}`,
	}, "\n") + "\n"
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		if code := run(strings.NewReader(session), &out, io.Discard, func(k string) string { return env[k] }, nil); code != 0 || strings.Count(out.String(), "\n") != 5 {
			b.Fatal(code, out.String())
		}
	}
}
