// Package gate enforces the mode on every call, not merely by hiding tools:
// a tool the mode does not allow is refused, the action an execution tool
// names must exist in the catalog (aliases resolve), and query_action runs
// only read-only, non-stream actions. It runs before input completion, so a
// call it refuses never shows the user a prompt.
package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

const stageName = "gate"

// Stage is the gate stage.
type Stage struct {
	mode config.Mode
	cat  *catalog.Catalog
}

// New returns the gate for mode.
func New(mode config.Mode, cat *catalog.Catalog) Stage { return Stage{mode: mode, cat: cat} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return stageName }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if err := s.allowTool(c.Tool); err != nil {
			return nil, err
		}
		if c.Tool.Route == pipeline.RouteNone {
			return next(ctx, c)
		}
		name, err := actionName(c.Arguments)
		if err != nil {
			return nil, err
		}
		a, err := Resolve(s.cat, name, c.Tool.Route)
		if err != nil {
			return nil, err
		}
		c.Action = a
		return next(ctx, c)
	}
}

func (s Stage) allowTool(t *pipeline.Tool) error {
	ok := true
	switch t.Access {
	case pipeline.AccessRead:
		ok = s.mode == config.ModeRead || s.mode == config.ModeWrite
	case pipeline.AccessWrite:
		ok = s.mode == config.ModeWrite
	}
	if !ok {
		return fault.Errorf(fault.CodeModeDenied, stageName, "%s is not available in %s mode", t.Name, s.mode)
	}
	return nil
}

// Resolve finds the named action and checks that route may run it. It is
// the read/write routing rule, shared with every tool that runs actions.
func Resolve(cat *catalog.Catalog, name string, route pipeline.Route) (*catalog.Action, error) {
	a, ok := cat.Lookup(name)
	if !ok {
		return nil, fault.Errorf(fault.CodeUnknownAction, stageName, "unknown action %q: it is not in the bundled catalog", name)
	}
	if route == pipeline.RouteQuery && (!a.ReadOnly || a.Stream) {
		what := "a write action"
		if a.Stream {
			what = "a stream action"
		}
		return nil, fault.Errorf(fault.CodeWrongTool, stageName, "%s is %s; query_action runs only read-only actions, use invoke_action (write mode)", a.Name, what)
	}
	return a, nil
}

// actionName reads the "action" argument without judging the rest, which is
// the validation stage's work.
func actionName(args json.RawMessage) (string, error) {
	var v struct {
		Action *string `json:"action"`
	}
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &v) != nil {
		return "", fault.Errorf(fault.CodeInvalidArgument, stageName, "arguments must be a JSON object with a string \"action\"")
	}
	if v.Action == nil || *v.Action == "" {
		return "", fault.Errorf(fault.CodeInvalidArgument, stageName, "arguments.action is required: name a catalog action (see list_actions)")
	}
	return *v.Action, nil
}

// String describes the gate for logs and tests.
func (s Stage) String() string { return fmt.Sprintf("gate(%s)", s.mode) }
