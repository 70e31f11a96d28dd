package calllog_test

import (
	"context"
	"os"
	"time"

	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/calllog"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// The call log writes one line per completed call: the tool, the
// traceparent, the verdict and the duration, never the arguments.
func Example() {
	clock := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(1500 * time.Millisecond); return clock }
	c := stagetest.Call(stagetest.Query, "get_msg", `{"message_id":7}`)
	c.Span = stagetest.Span

	failed := &pipeline.Result{IsError: true, Diagnostics: pipeline.Diagnostics{Outcome: pipeline.OutcomeFailed, Kind: "timeout"}}
	stagetest.Run(context.Background(), calllog.New(os.Stdout, now), c, stagetest.Answer(failed, nil))
	// Output:
	// snowluma-mcp call tool=query_action traceparent=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 outcome=failed kind=timeout duration_ms=1500.0
}
