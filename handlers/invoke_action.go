package handlers

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/upload"
)

// invokeInput adds execution options to the execution input.
const invokeInput = `{"type":"object","properties":{
 "action":{"type":"string","minLength":1,"description":"目录中的动作名或别名（catalog action name or alias）。"},
 "params":{"type":"object","description":"该动作的 OneBot 参数（params），按 get_action 的 inputSchema 填写；省略即 {}。"},
 "execution":{"type":"object","description":"执行选项（execution options）。目前只有 upload_file_stream 的自动上传。","properties":{
  "input_file":{"type":"string","minLength":1,"description":"要上传的文件（input file），MCP 主机上的路径，必须位于 SNOWLUMA_MCP_UPLOAD_ROOT 之内（相对路径按该目录解析）；服务器自动分块、校验并完成上传。"}},
  "required":["input_file"],"additionalProperties":false}},
 "required":["action"],"additionalProperties":false}`

// InvokeAction runs any catalog action; it exists only in write mode.
func InvokeAction(d *Deps) Tool {
	return newTool("invoke_action",
		"执行任意目录动作（invoke an action），包括发消息、禁言等写操作和流式动作；仅写模式（write mode）可用，从不自动重试。普通动作返回 SnowLuma 原样的 OneBot 响应；下载类流式动作把文件存到 MCP 主机的下载目录并返回文件信息；upload_file_stream 配合 execution.input_file 自动上传；其他流式动作返回收集到的帧。",
		pipeline.RouteInvoke, pipeline.AccessWrite,
		&mcp.ToolAnnotations{DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(true)},
		invokeInput, envelopeResultSchema,
		func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			var args struct {
				Params    map[string]any `json:"params"`
				Execution *struct {
					InputFile string `json:"input_file"`
				} `json:"execution"`
			}
			if err := decode(c.Arguments, &args); err != nil {
				return nil, err
			}
			if args.Execution != nil {
				if c.Action.Name != upload.Action {
					return nil, fault.Errorf(fault.CodeInvalidArgument, "handler", "execution.input_file applies only to %s", upload.Action)
				}
				if len(args.Params) > 0 {
					return nil, fault.Errorf(fault.CodeInvalidArgument, "handler", "give either params or execution.input_file, not both: the automatic upload builds its own params")
				}
				return runStream(ctx, d, c, &args.Execution.InputFile)
			}
			if c.Action.Stream {
				return runStream(ctx, d, c, nil)
			}
			return execute(ctx, c)
		})
}
