package diagnostics_test

import (
	"context"
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/diagnostics"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// The diagnostics stage turns every call into a result with a verdict: a payload is
// encoded, and a failure below becomes a tool error whose outcome says
// whether SnowLuma may have acted (a write that timed out may have).
func Example() {
	ctx := context.Background()
	c := stagetest.Call(stagetest.Invoke, "send_group_msg", `{"group_id":20001,"message":"hi"}`)

	o := stagetest.Run(ctx, diagnostics.New(), c, stagetest.Answer(&pipeline.Result{Payload: map[string]int{"message_id": 7}}, nil))
	fmt.Printf("%s %s\n", o.Result.Diagnostics.Outcome, o.Result.Payload)

	o = stagetest.Run(ctx, diagnostics.New(), c, stagetest.Answer(nil, fault.Errorf(fault.CodeTimeout, "no reply from SnowLuma in time")))
	d := o.Result.Diagnostics
	fmt.Printf("error=%v %s %s: %s\n", o.Result.IsError, d.Outcome, d.Kind, d.Message)
	// Output:
	// success {"message_id":7}
	// error=true unknown timeout: no reply from SnowLuma in time
}
