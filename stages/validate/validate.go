// Package validate checks every call's arguments against the tool's input
// schema, and an execution call's OneBot params against the action's catalog
// schema, with a real JSON Schema validator before anything is sent. Tools
// are registered with the SDK's raw AddTool precisely so this check is ours
// and visible here.
package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/schema"
)

const stageName = "validate"

// Stage is the validation stage.
type Stage struct{ actions *actionSchemas }

// New returns the stage. Action schemas compile on first use, so start-up
// does not pay for 177 schemas a session may never touch.
func New() Stage { return Stage{actions: &actionSchemas{m: map[string]*schema.Validator{}}} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return stageName }

// Wrap implements pipeline.Stage. The tool schema compiles here, once.
func (s Stage) Wrap(next pipeline.Handler) pipeline.Handler {
	var tool *schema.Validator
	var once sync.Once
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		once.Do(func() { tool = schema.MustCompile(string(c.Tool.InputSchema)) })
		if len(bytes.TrimSpace(c.Arguments)) == 0 || string(bytes.TrimSpace(c.Arguments)) == "null" {
			c.Arguments = json.RawMessage("{}")
		}
		if err := tool.Validate(c.Arguments, "arguments"); err != nil {
			return nil, fault.Wrap(fault.CodeInvalidArgument, stageName, err, "invalid arguments")
		}
		if c.Action != nil {
			if err := s.checkParams(c); err != nil {
				return nil, err
			}
		}
		return next(ctx, c)
	}
}

func (s Stage) checkParams(c *pipeline.Call) error {
	var args struct {
		Params    json.RawMessage `json:"params"`
		Execution json.RawMessage `json:"execution"`
	}
	if err := json.Unmarshal(c.Arguments, &args); err != nil {
		return fault.Wrap(fault.CodeInvalidArgument, stageName, err, "invalid arguments")
	}
	if len(args.Execution) > 0 && string(args.Execution) != "null" {
		// With execution options the handler builds the OneBot params
		// itself (an automatic upload makes each chunk's); the tool schema
		// has already checked the options.
		c.Params = args.Params
		return nil
	}
	if len(args.Params) == 0 || string(args.Params) == "null" {
		args.Params = json.RawMessage("{}")
	}
	v, err := s.actions.get(c.Action)
	if err != nil {
		return fault.Wrap(fault.CodeInternal, stageName, err, "catalog schema of "+c.Action.Name)
	}
	if err := v.Validate(args.Params, "params"); err != nil {
		return fault.Wrap(fault.CodeInvalidArgument, stageName, err, "invalid params for "+c.Action.Name+" (get_action shows its parameters)")
	}
	c.Params = args.Params
	return nil
}

type actionSchemas struct {
	mu sync.Mutex
	m  map[string]*schema.Validator
}

func (a *actionSchemas) get(act *catalog.Action) (*schema.Validator, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if v, ok := a.m[act.Name]; ok {
		return v, nil
	}
	v, err := schema.Compile(act.InputSchema)
	if err != nil {
		return nil, err
	}
	a.m[act.Name] = v
	return v, nil
}
