package params_test

import (
	"context"
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/stages/params"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// The params stage checks an action's params against its catalog schema
// and rewrites what SnowLuma would read as another value (a quoted id)
// into that value, once, so every later stage and SnowLuma read the same
// params. Params that do not fit go no further.
func Example() {
	stage := params.New()
	ctx := context.Background()

	o := stagetest.Run(ctx, stage, stagetest.Call(stagetest.Invoke, "send_group_msg", `{"group_id":"20001","message":"hi"}`), nil)
	fmt.Println("sends:", string(o.Next.Params))

	o = stagetest.Run(ctx, stage, stagetest.Call(stagetest.Query, "get_msg", `{"message_id":"0"}`), nil)
	fmt.Println("refused:", fault.CodeOf(o.Err), "next ran:", o.Reached())
	// Output:
	// sends: {"group_id":20001,"message":"hi"}
	// refused: invalid_argument next ran: false
}
