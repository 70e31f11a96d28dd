package trace_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/snowluma/snowluma-mcp/stages/stagetest"
	"github.com/snowluma/snowluma-mcp/stages/trace"
)

// The trace stage gives each call its own span, a child of the caller's
// trace when its _meta names one, and names it in the result's
// _meta.traceparent.
func Example() {
	c := stagetest.Call(stagetest.Query, "get_status", "")
	c.Meta = map[string]any{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
	o := stagetest.Run(context.Background(), trace.New(), c, nil)
	parts := strings.Split(o.Result.Meta["traceparent"].(string), "-")
	fmt.Println("trace:", parts[1])
	fmt.Println("new span:", parts[2] != "00f067aa0ba902b7")
	// Output:
	// trace: 4bf92f3577b34da6a3ce929d0e0e4736
	// new span: true
}
