package progress_test

import (
	"context"
	"fmt"
	"time"

	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/progress"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// A handler may report progress as often as it likes: the client hears at
// most one value per interval, never the same value twice, and never the
// end of the transfer, which the result reports.
func Example() {
	c := stagetest.Call(stagetest.Invoke, "upload_file_stream", "")
	c.Notify = func(_ context.Context, done, total int64) error {
		fmt.Printf("progress %d/%d\n", done, total)
		return nil
	}
	transfer := func(_ context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		for done := int64(1); done <= 10; done++ {
			c.Progress(done, 10)
		}
		return &pipeline.Result{}, nil
	}
	stagetest.Run(context.Background(), progress.New(time.Hour), c, transfer)
	// Output:
	// progress 1/10
}
