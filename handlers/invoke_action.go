package handlers

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// invokeArgs add execution options to actionArgs.
type invokeArgs struct {
	actionArgs
	Execution *execution `json:"execution,omitempty" jsonschema:"执行选项（execution options）。目前只有 upload_file_stream 的自动上传。"`
}

type execution struct {
	InputFile string `json:"input_file" jsonschema:"要上传的文件（input file），MCP 主机上的路径，必须位于 SNOWLUMA_MCP_UPLOAD_ROOT 之内（相对路径按该目录解析）；服务器自动分块、校验并完成上传。" schema:"minLength=1"`
}

// Target implements pipeline.Target: with execution options the handler
// builds the params itself.
func (a *invokeArgs) Target() (string, json.RawMessage, bool) {
	return a.Action, json.RawMessage(a.Params), a.Execution != nil
}

// InvokeAction runs any catalog action; it exists only in write mode.
func InvokeAction(d *Deps) *pipeline.Tool {
	return pipeline.NewTool(pipeline.Spec{
		Name:        "invoke_action",
		Description: "执行任意目录动作（invoke an action），包括发消息、禁言等写操作和流式动作；仅写模式（write mode）可用，从不自动重试。普通动作返回 SnowLuma 原样的 OneBot 响应；下载类流式动作把文件存到 MCP 主机的下载目录并返回文件信息；upload_file_stream 配合 execution.input_file 自动上传；其他流式动作返回收集到的帧。",
		Summary: lang.Text{
			EN: "Runs any action: sends messages, uploads and downloads files.",
			ZH: "执行任意动作：发送消息、上传和下载文件。",
		},
		Mode: config.ModeWrite, Actions: pipeline.AnyAction,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(true)},
		Result:      envelopeResultSchema,
	}, func(ctx context.Context, c *pipeline.Call, args *invokeArgs) (*pipeline.Result, error) {
		if args.Execution != nil {
			if c.Action.Name != upload.Action {
				return nil, fault.Errorf(fault.CodeInvalidArgument, "execution.input_file applies only to %s", upload.Action).Unsent()
			}
			if hasMembers(args.Params) {
				return nil, fault.Errorf(fault.CodeInvalidArgument, "give either params or execution.input_file, not both: the automatic upload builds its own params").Unsent()
			}
			return runStream(ctx, d, c, &args.Execution.InputFile)
		}
		if c.Action.Stream {
			return runStream(ctx, d, c, nil)
		}
		return execute(ctx, c)
	})
}

// hasMembers reports whether params is an object with at least one member.
func hasMembers(params []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(params, &m) == nil && len(m) > 0
}
