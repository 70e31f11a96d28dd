package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

type getActionArgs struct {
	Name string `json:"name" jsonschema:"动作名或别名（action name or alias），如 send_group_msg。" schema:"minLength=1"`
}

// GetAction returns one action's full contract; aliases resolve to their
// target's contract.
func GetAction(d *Deps) *pipeline.Tool {
	return pipeline.NewTool(pipeline.Spec{
		Name:        "get_action",
		Description: "查看一个动作的完整契约（get action contract）：参数、inputSchema、returnsSchema 与示例。可用别名（alias）。",
		Summary: lang.Text{
			EN: "Shows one action's parameters, result and examples.",
			ZH: "查看一个动作的参数、返回值和示例。",
		},
		Mode: config.ModeDocs, Annotations: readOnlyDocs,
		Result: `{"type":["object","null"],"description":"The action's full contract.","required":["name","aliases","category","summary","readOnly","stream","params","inputSchema","returnsSchema","examples"]}`,
	}, func(ctx context.Context, c *pipeline.Call, args *getActionArgs) (*pipeline.Result, error) {
		a, ok := d.Catalog.Lookup(args.Name)
		if !ok {
			return nil, fault.Errorf(fault.CodeUnknownAction, "unknown action %s: it is not in the bundled catalog", fault.Quote(args.Name))
		}
		return &pipeline.Result{Payload: a}, nil
	})
}
