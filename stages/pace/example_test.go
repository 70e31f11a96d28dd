package pace_test

import (
	"context"
	"fmt"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/stages/pace"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// With one send a minute to a group and no wait allowed, the second send
// to the same group is refused before it reaches SnowLuma, saying when it
// could go; another group's budget is its own.
func Example() {
	limits := config.SendPace{
		Target:  config.Budget{Burst: 1, Every: time.Minute},
		Account: config.Budget{Burst: 10, Every: time.Second},
	}
	stage := pace.New(budget.New(limits, budgettest.New(), nil))
	ctx := context.Background()
	for _, group := range []string{"20001", "20001", "20002"} {
		o := stagetest.Run(ctx, stage, stagetest.Call(stagetest.Invoke, "send_group_msg", `{"group_id":`+group+`,"message":"hi"}`), nil)
		if o.Err != nil {
			fmt.Printf("group %s: %s, retry after %s: %v\n", group, fault.CodeOf(o.Err), fault.RetryAfterOf(o.Err), o.Err)
			continue
		}
		fmt.Printf("group %s: sent\n", group)
	}
	// Output:
	// group 20001: sent
	// group 20001: rate_limited, retry after 1m0s: group 20001's send budget is spent: this send_group_msg could go in 60.0 s, longer than the 0.0 s a send may wait (SNOWLUMA_MCP_SEND_WAIT_MS); nothing was sent
	// group 20002: sent
}
