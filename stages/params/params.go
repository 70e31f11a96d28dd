// Package params is the stage that checks an execution call's OneBot params
// against the action's catalog schema before anything is sent. It runs after
// input completion, so completed params are checked like any others. It
// refuses a top-level key SnowLuma neither declares nor reads
// (catalog.Action.Unknown: SnowLuma would drop it, so the call could not do
// what was meant), checks the raw-read keys' types beside the declared
// params' (catalog.Action.AcceptedSchema), and also rewrites the spellings SnowLuma's coercers read (an id quoted as a
// string, see schema.Validator.Normalize) into the values they name, once,
// before any stage that reads a param. A call whose request body would
// pass SnowLuma's body cap (onebot.Fits) is refused here too, before any
// budget is spent on it.
package params

import (
	"context"
	"sync"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the params stage.
type Stage struct{ actions *actionSchemas }

// New returns the stage. Action schemas compile on first use, so start-up
// does not pay for 177 schemas a session may never touch.
func New() Stage { return Stage{actions: &actionSchemas{m: map[string]*schema.Validator{}}} }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if t.Actions == pipeline.NoActions {
		return next
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if c.ParamsBuilt {
			// The handler builds the params itself (an automatic upload
			// makes each chunk's); the tool schema has checked its options.
			return next(ctx, c)
		}
		v, err := s.actions.get(c.Action)
		if err != nil {
			return nil, fault.Wrap(fault.CodeInternal, err, "catalog schema of "+c.Action.Name)
		}
		// A key SnowLuma would drop is refused first: the call could not
		// do what was meant, whatever the other keys hold.
		if err := c.Action.Unknown(c.Params); err != nil {
			return nil, err
		}
		// Read the spellings SnowLuma reads (a quoted id) once, here, so
		// that pace, lockdown and SnowLuma all see the value they name.
		params, err := v.Normalize(c.Params, "params")
		if err == nil {
			err = v.Validate(params, "params")
		}
		if err != nil {
			return nil, fault.Wrap(fault.CodeInvalidArgument, err, "invalid params for "+c.Action.Name+" (get_action shows its parameters)")
		}
		// A body SnowLuma would drop unread is refused here, before pace
		// spends a budget on a send that cannot go.
		if err := onebot.Fits(c.Action.Name, params); err != nil {
			return nil, err
		}
		c.Params = params
		return next(ctx, c)
	}
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
	doc, err := act.AcceptedSchema()
	if err != nil {
		return nil, err
	}
	v, err := schema.Compile(doc)
	if err != nil {
		return nil, err
	}
	a.m[act.Name] = v
	return v, nil
}
