package handlers

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// envelopeResultSchema describes the OneBot envelope passed through verbatim.
const envelopeResultSchema = `{"type":["object","null"],"description":"SnowLuma's OneBot envelope, verbatim; null for tool errors.","properties":{
 "status":{"type":"string","description":"ok, failed or async."},
 "retcode":{"type":"integer","description":"0 on success; 1400 bad parameters, 1404 unknown action, 100 action failed."},
 "data":{"description":"The action's data; get_action shows its returnsSchema."},
 "wording":{"type":"string","description":"Failure reason."}}}`

// actionArgs are the arguments of every tool that runs a named action.
type actionArgs struct {
	Action string        `json:"action" jsonschema:"动作名或别名。" schema:"minLength=1"`
	Params schema.Object `json:"params,omitempty" jsonschema:"动作参数，见 get_action 的 inputSchema；省略即 {}。"`
}

// Target implements pipeline.Target.
func (a *actionArgs) Target() (string, json.RawMessage, bool) {
	return a.Action, json.RawMessage(a.Params), false
}

// QueryAction runs a read-only catalog action.
func QueryAction(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[actionArgs, any](pipeline.Spec{
		Name:        "query_action",
		Description: "执行只读动作（query a read-only action），如 get_group_list，返回 SnowLuma 原样的响应；写动作与流式动作用 invoke_action。",
		Sample:      pipeline.Sample{Good: `{"action":"get_login_info"}`, Bad: `{"action":"send_msg"}`},
		Summary: lang.Text{
			EN: "Runs a read-only action, such as get_group_list.",
			ZH: "执行一个只读动作，例如 get_group_list。",
		},
		MinMode: config.ModeRead, Actions: pipeline.ReadActions,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: boolPtr(true)},
		Result:      envelopeResultSchema,
	}, func(ctx context.Context, c *pipeline.Call, _ *actionArgs) (pipeline.Reply[any], error) {
		return execute(ctx, c)
	})
}

// execute runs the call's action once and passes the envelope through.
func execute(ctx context.Context, c *pipeline.Call) (pipeline.Reply[any], error) {
	reply, err := c.OneBot.Do(ctx, c.Action.Name, c.Params)
	if err != nil {
		return pipeline.Reply[any]{}, err
	}
	return pipeline.Reply[any]{Payload: reply.Raw, Diagnostics: verdict(reply, c.Action.ReadOnly)}, nil
}
