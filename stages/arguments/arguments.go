// Package arguments is the stage that checks a call's tool arguments against
// the tool's input schema with a real JSON Schema validator and decodes them,
// once, into the tool's typed value. Later stages and the handler read that
// value (and, for tools that run actions, the action name and params it
// names) instead of parsing the raw JSON again. Tools are registered with
// the SDK's raw AddTool precisely so this check is ours and visible here.
package arguments

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the arguments stage.
type Stage struct{}

// New returns the stage.
func New() Stage { return Stage{} }

// Wrap implements pipeline.Stage. The tool's schema compiles on its first
// call, not at registration, so start-up does not pay for tools a session
// never calls.
func (Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	var (
		once sync.Once
		v    *schema.Validator
	)
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		// A refusal offers the argument a slip meant, by the same
		// did-you-mean as an action's parameters.
		once.Do(func() { v = schema.MustCompile(string(t.InputSchema)).Suggest(catalog.NearestNames) })
		if trimmed := bytes.TrimSpace(c.Arguments); len(trimmed) == 0 || string(trimmed) == "null" {
			c.Arguments = json.RawMessage("{}")
		}
		// A host's own control key is dropped before anything reads the
		// arguments, so validation, the decoded value and a signed
		// continuation all see the call as the model meant it.
		c.Arguments = dropHostKeys(c.Arguments)
		if t.QuotedIDs {
			// The one reader of quoted ids the params stage uses, so a
			// tool reads "20001" exactly as every action does.
			norm, err := v.Normalize(c.Arguments, "arguments")
			if err != nil {
				return nil, refuse(t, err)
			}
			c.Arguments = norm
		}
		if err := v.Validate(c.Arguments, "arguments"); err != nil {
			return nil, refuse(t, err)
		}
		args, err := t.Decode(c.Arguments)
		if err != nil {
			return nil, err
		}
		c.Args = args
		if target, ok := args.(pipeline.Target); ok {
			name, params, built := target.Target()
			c.ActionName, c.ParamsBuilt = name, built
			c.Params = params
			if !built && !schema.Object(params).Given() {
				c.Params = json.RawMessage("{}")
			}
		}
		return next(ctx, c)
	}
}

// refuse is the failure of arguments that do not fit the tool's schema.
// Its next step names the tool's own schema: get_action, the default for
// invalid arguments, describes an action's params, not a tool's.
func refuse(t *pipeline.Tool, err error) error {
	return fault.Wrap(fault.CodeInvalidArgument, err, "invalid arguments").Unsent().
		Then("Correct " + t.Name + "'s arguments as the message says (its input schema in tools/list gives each one); nothing was sent.")
}
