package handlers

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// envelopeResultSchema describes the OneBot envelope passed through verbatim.
const envelopeResultSchema = `{"type":["object","null"],"description":"SnowLuma's OneBot envelope, verbatim; null for tool errors.","properties":{
 "status":{"type":"string","description":"ok, failed or async."},
 "retcode":{"type":"integer","description":"0 on success; 1400 bad parameters, 1404 unknown action, 100 action failed."},
 "data":{"description":"The action's data; get_action shows its returnsSchema."},
 "wording":{"type":"string","description":"Failure reason."}}}`

// executionInput is the input schema of query_action and invoke_action.
const executionInput = `{"type":"object","properties":{
 "action":{"type":"string","minLength":1,"description":"目录中的动作名或别名（catalog action name or alias）。"},
 "params":{"type":"object","description":"该动作的 OneBot 参数（params），按 get_action 的 inputSchema 填写；省略即 {}。"}},
 "required":["action"],"additionalProperties":false}`

// QueryAction runs a read-only catalog action.
func QueryAction(d *Deps) Tool {
	return newTool("query_action",
		"执行只读的 OneBot 动作（query a read-only action），如 get_status、get_group_list。写动作与流式动作请用 invoke_action。返回 SnowLuma 原样的 OneBot 响应。",
		pipeline.RouteQuery, pipeline.AccessRead,
		&mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: boolPtr(true)},
		executionInput, envelopeResultSchema, execute)
}

// execute runs the call's action once and passes the envelope through.
func execute(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
	reply, err := c.OneBot.Do(ctx, c.Action.Name, c.Params)
	if err != nil {
		return nil, err
	}
	return &pipeline.Result{Payload: reply.Raw, Diagnostics: verdict(reply)}, nil
}
