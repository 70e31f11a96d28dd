package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// GetAction returns one action's full contract; aliases resolve to their
// target's contract.
func GetAction(d *Deps) Tool {
	return newTool("get_action",
		"查看一个动作的完整契约（get action contract）：参数、inputSchema、returnsSchema 与示例。可用别名（alias）。",
		pipeline.RouteNone, pipeline.AccessDocs, readOnlyDocs,
		`{"type":"object","properties":{"name":{"type":"string","minLength":1,"description":"动作名或别名（action name or alias），如 send_group_msg。"}},"required":["name"],"additionalProperties":false}`,
		`{"type":["object","null"],"description":"The action's full contract.","required":["name","aliases","category","summary","readOnly","stream","params","inputSchema","returnsSchema","examples"]}`,
		func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			var args struct {
				Name string `json:"name"`
			}
			if err := decode(c.Arguments, &args); err != nil {
				return nil, err
			}
			a, ok := d.Catalog.Lookup(args.Name)
			if !ok {
				return nil, fault.Errorf(fault.CodeUnknownAction, "handler", "unknown action %q: it is not in the bundled catalog", args.Name)
			}
			return &pipeline.Result{Payload: a}, nil
		})
}
