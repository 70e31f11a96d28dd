package gate_test

import (
	"context"
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/stages/gate"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// In read mode the gate resolves the action a query names (an alias to
// its target) and refuses what the mode or the tool does not allow before
// anything further runs.
func Example() {
	g := gate.New(config.ModeRead, stagetest.Catalog())
	ctx := context.Background()

	o := stagetest.Run(ctx, g, stagetest.Ungated(stagetest.Query, "get_ptt_text", ""), nil)
	fmt.Println("resolved:", o.Next.Action.Name)

	o = stagetest.Run(ctx, g, stagetest.Ungated(stagetest.Query, "send_group_msg", ""), nil)
	fmt.Printf("%s: %v\n", fault.CodeOf(o.Err), o.Err)

	o = stagetest.Run(ctx, g, stagetest.Ungated(stagetest.Invoke, "send_group_msg", ""), nil)
	fmt.Printf("%s: %v (next ran: %v)\n", fault.CodeOf(o.Err), o.Err, o.Reached())
	// Output:
	// resolved: fetch_ptt_text
	// wrong_tool: send_group_msg is a write action; query_action runs only read-only actions, use invoke_action (write mode)
	// mode_denied: invoke_action is not available in read mode (next ran: false)
}
