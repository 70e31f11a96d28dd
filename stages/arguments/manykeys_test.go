package arguments

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// BenchmarkArgumentsManyKeys is the stage's cost for an action tool's
// arguments whose params hold 100,000 keys (issue 49's hostile request):
// the schema check scans params without decoding it, so what is left is
// the decode into the tool's arguments (params kept as raw bytes).
func BenchmarkArgumentsManyKeys(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"action":"get_group_info","params":{"group_id":1`)
	for i := range 100000 {
		fmt.Fprintf(&sb, `,"junk_key_%07d":1`, i)
	}
	sb.WriteString(`}}`)
	args := []byte(sb.String())
	h := New().Wrap(actionTool, func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil })
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		c := &pipeline.Call{Request: pipeline.Request{Tool: actionTool, Arguments: args}}
		if _, err := h(context.Background(), c); err != nil {
			b.Fatal(err)
		}
	}
}
