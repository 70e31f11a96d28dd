package arguments_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/arguments"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// queryArgs are the arguments of a tool that runs a named action.
type queryArgs struct {
	Action string        `json:"action" schema:"minLength=1"`
	Params schema.Object `json:"params,omitempty"`
}

// Target names the action and its params for the stages after arguments.
func (a *queryArgs) Target() (string, json.RawMessage, bool) {
	return a.Action, json.RawMessage(a.Params), false
}

// The arguments stage checks a call's arguments against the tool's schema
// and decodes them once: later stages read the action and params it
// names, the handler the typed value. Arguments that do not fit go no
// further.
func Example() {
	tool := pipeline.NewTool[queryArgs, any](pipeline.Spec{Name: "query_action", MinMode: config.ModeRead, Actions: pipeline.ReadActions, Result: `{"type":"null"}`},
		func(context.Context, *pipeline.Call, *queryArgs) (pipeline.Reply[any], error) {
			return pipeline.Reply[any]{}, nil
		})
	ctx := context.Background()

	o := stagetest.Run(ctx, arguments.New(), stagetest.Raw(tool, `{"action":"get_status"}`), nil)
	fmt.Printf("action=%s params=%s\n", o.Next.ActionName, o.Next.Params)

	o = stagetest.Run(ctx, arguments.New(), stagetest.Raw(tool, `{"action":7}`), nil)
	fmt.Println(o.Err)
	// Output:
	// action=get_status params={}
	// invalid arguments: arguments.action: want string, got integer
}
