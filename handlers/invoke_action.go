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
	Execution *execution `json:"execution,omitempty" jsonschema:"upload_file_stream 的自动上传。"`
}

type execution struct {
	InputFile string `json:"input_file" jsonschema:"MCP 宿主所在机器上要上传的文件（input file），须在上传根目录（upload_root）内，相对路径按它解析。" schema:"minLength=1"`
}

// Target implements pipeline.Target: with execution options the handler
// builds the params itself.
func (a *invokeArgs) Target() (string, json.RawMessage, bool) {
	return a.Action, json.RawMessage(a.Params), a.Execution != nil
}

// InvokeAction runs any catalog action; it exists only in write mode.
func InvokeAction(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[invokeArgs, any](pipeline.Spec{
		Name:        "invoke_action",
		Description: "执行任意动作（invoke an action），含写操作与流式动作，从不自动重试。返回 SnowLuma 原样的响应；流式下载存入下载目录（download_dir）并返回文件信息，其他流返回收到的帧。",
		Sample:      pipeline.Sample{Good: `{"action":"set_group_sign","params":{"group_id":123456789}}`, Bad: `{"action":"set_group_sign","params":{"group_id":-1}}`},
		Summary: lang.Text{
			EN: "Runs any action: sends messages, uploads and downloads files.",
			ZH: "执行任意动作：发送消息、上传和下载文件。",
		},
		MinMode: config.ModeWrite, Actions: pipeline.AnyAction,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(true)},
		Result:      envelopeResultSchema,
	}, func(ctx context.Context, c *pipeline.Call, args *invokeArgs) (pipeline.Reply[any], error) {
		if args.Execution != nil {
			if c.Action.Name != upload.Action {
				return pipeline.Reply[any]{}, fault.Errorf(fault.CodeInvalidArgument, "execution.input_file applies only to %s", upload.Action).Unsent()
			}
			if hasMembers(args.Params) {
				return pipeline.Reply[any]{}, fault.Errorf(fault.CodeInvalidArgument, "give either params or execution.input_file, not both: the automatic upload builds its own params").Unsent()
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
