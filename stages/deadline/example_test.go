package deadline_test

import (
	"context"
	"fmt"
	"time"

	"github.com/snowluma/snowluma-mcp/stages/deadline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// An ordinary call runs under the request timeout; a stream keeps its own
// timeouts; a call cancelled before it starts is refused with nothing sent.
func Example() {
	stage := deadline.New(30 * time.Second)
	ctx := context.Background()

	o := stagetest.Run(ctx, stage, stagetest.Call(stagetest.Query, "get_status", ""), nil)
	_, bounded := o.Ctx.Deadline()
	fmt.Println("get_status has a deadline:", bounded)

	o = stagetest.Run(ctx, stage, stagetest.Call(stagetest.Invoke, "download_file_stream", ""), nil)
	_, bounded = o.Ctx.Deadline()
	fmt.Println("download_file_stream has a deadline:", bounded)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	o = stagetest.Run(cancelled, stage, stagetest.Call(stagetest.Invoke, "send_group_msg", ""), nil)
	fmt.Println(o.Err)
	// Output:
	// get_status has a deadline: true
	// download_file_stream has a deadline: false
	// call cancelled before it started: context canceled
}
