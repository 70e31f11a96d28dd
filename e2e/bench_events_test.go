package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// BenchmarkEventFlood floods the real binary over a loopback WebSocket
// with group messages spread over 16 groups while 16 resources each filter
// on one of them, and reports the rate the binary took them in (events/s)
// and its peak resident set (VmHWM, peak-rss-MiB) over the whole run. Two
// flood lengths show whether memory stays flat as the flood goes on.
func BenchmarkEventFlood(b *testing.B) {
	for _, n := range []int{50_000, 200_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			sc := snow.Scene(fake.SceneOptions{})
			cs, cmd, _ := connect(b, modern, with(readEnv(), "SNOWLUMA_MCP_EVENTS_URL", sc.URL()))
			b.Cleanup(func() { _ = cs.Close() })
			ctx := context.Background()
			var last string
			for g := range 16 {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "subscribe_events",
					Arguments: map[string]any{"self_id": self, "group_ids": []int{20000 + g}}})
				require.NoError(b, err)
				require.False(b, res.IsError)
				var out struct {
					Result struct {
						URI string `json:"uri"`
					} `json:"result"`
				}
				raw, _ := json.Marshal(res.StructuredContent)
				require.NoError(b, json.Unmarshal(raw, &out))
				last = out.Result.URI
			}
			frames := make([]string, 16)
			for g := range frames {
				frames[g] = fake.GroupMessage(self, int64(20000+g), 30001, "hello from a busy group, message body of ordinary length")
			}
			var cursor uint64
			var elapsed time.Duration
			for b.Loop() {
				began := time.Now()
				for i := range n {
					sc.Push(frames[i%16])
				}
				// The last group's resource sees its share last: the binary
				// reads frames in order.
				want := cursor + uint64(n/16)
				for cursor < want {
					res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: fmt.Sprintf("%s?after=%d", last, cursor)})
					require.NoError(b, err)
					var p struct {
						NextCursor uint64 `json:"next_cursor"`
						Status     struct {
							State string `json:"state"`
						} `json:"status"`
					}
					require.NoError(b, json.Unmarshal([]byte(res.Contents[0].Text), &p))
					require.Equal(b, "connected", p.Status.State)
					cursor = p.NextCursor
					if cursor < want {
						time.Sleep(5 * time.Millisecond)
					}
				}
				elapsed += time.Since(began)
			}
			b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "events/s")
			b.ReportMetric(float64(procKiB(b, cmd.Process.Pid, "VmHWM:"))/1024, "peak-rss-MiB")
		})
	}
}
