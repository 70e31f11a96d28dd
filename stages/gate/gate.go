// Package gate enforces the mode on every call, not merely by hiding tools:
// a tool the mode does not allow is refused, the action an execution tool
// names must exist in the catalog (aliases resolve), and a tool that runs
// only read actions runs only read-only, non-stream ones. It runs before
// input completion, so a call it refuses never shows the user a prompt.
package gate

import (
	"context"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the gate stage.
type Stage struct {
	mode config.Mode
	cat  *catalog.Catalog
}

// New returns the gate for mode.
func New(mode config.Mode, cat *catalog.Catalog) Stage { return Stage{mode: mode, cat: cat} }

// Wrap implements pipeline.Stage. Whether the mode allows the tool is
// decided here, once; the same config.Mode.Allows decides what tools/list
// shows.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if !s.mode.Allows(t.MinMode) {
		return func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
			return nil, fault.Errorf(fault.CodeModeDenied, "%s is not available in %s mode", t.Name, s.mode).Unsent()
		}
	}
	if t.Actions == pipeline.NoActions {
		return next
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if c.ActionName == "" {
			return nil, fault.Errorf(fault.CodeInvalidArgument, "arguments.action is required: name a catalog action (see list_actions)")
		}
		a, err := pipeline.Resolve(s.cat, c.ActionName, t.Actions)
		if err != nil {
			return nil, err
		}
		c.Action = a
		return next(ctx, c)
	}
}
