// Package recovery turns a panic anywhere inside it into an internal error,
// because the SDK lets a panicking handler take the whole process down and
// with it every other call in flight (SDK contract test:
// TestSDKPanicInAToolHandlerEndsTheProcess in cmd/snowluma-mcp/internal/server).
package recovery

import (
	"context"
	"fmt"
	"io"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the recovery stage.
type Stage struct{ log io.Writer }

// New returns the stage; it notes each recovered panic on log (stderr),
// naming only the tool, never the panic value, which may hold call data.
func New(log io.Writer) Stage { return Stage{log: log} }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (r *pipeline.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				if s.log != nil {
					fmt.Fprintf(s.log, "snowluma-mcp recovered a panic in tool=%s\n", t.Name)
				}
				r, err = nil, fault.Errorf(fault.CodeInternal, "internal error while handling %s; the server keeps running", t.Name)
			}
		}()
		return next(ctx, c)
	}
}
