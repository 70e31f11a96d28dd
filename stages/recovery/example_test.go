package recovery_test

import (
	"context"
	"fmt"
	"os"

	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/recovery"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// A panic below the recovery stage becomes an internal error, and the log
// names the tool but never the panic's value, which may hold call data.
func Example() {
	panics := func(context.Context, *pipeline.Call) (*pipeline.Result, error) { panic("the user's message") }
	o := stagetest.Run(context.Background(), recovery.New(os.Stdout), stagetest.Call(stagetest.Query, "get_status", ""), panics)
	fmt.Println(o.Err)
	// Output:
	// snowluma-mcp recovered a panic in tool=query_action
	// internal error while handling query_action; the server keeps running
}
