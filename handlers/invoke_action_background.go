package handlers

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// InvokeActionBackground starts a stream transfer as a durable background
// task (the MCP tasks extension) and answers with its handle at once. The
// stages have already gated and validated the call exactly as for
// invoke_action; the task itself then runs invoke_action's own chain.
// It never asks for input: a transfer left running unattended cannot wait
// on a question.
//
// Its task runs the chain of invoke, the invoke_action tool, which the
// server hands to the task runner (Spec.Runs); the server's hand-off
// starts it (Call.Detach).
func InvokeActionBackground(d *Deps, invoke *pipeline.Tool) *pipeline.Tool {
	return pipeline.NewTool[invokeArgs, any](pipeline.Spec{
		Name:        "invoke_action_background",
		Description: "把流式传输作为后台任务执行（run a stream action as a durable background task）：参数与 invoke_action 相同，但只接受流式动作（下载、upload_file_stream 自动上传、其他流）。立即返回任务句柄（resultType \"task\"），用 tasks/get 轮询结果，tasks/cancel 取消。任务记录持久保存，重启后仍可查询；重启时未完成的任务标记为失败（远端结果未知），从不重放。必填参数必须给全，不会询问用户。",
		Summary: lang.Text{
			EN: "Runs a file transfer in the background.",
			ZH: "在后台执行文件传输。",
		},
		MinMode: config.ModeWrite, Actions: pipeline.AnyAction, Tasks: true, Detaches: true, Runs: invoke,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(true)},
		Result:      envelopeResultSchema,
	}, func(ctx context.Context, c *pipeline.Call, args *invokeArgs) (pipeline.Reply[any], error) {
		if !c.Action.Stream {
			return pipeline.Reply[any]{}, fault.Errorf(fault.CodeWrongTool,
				"%s is not a stream action; background tasks run stream transfers only. Run it with invoke_action", c.Action.Name).Unsent()
		}
		if args.Execution != nil {
			if c.Action.Name != upload.Action {
				return pipeline.Reply[any]{}, fault.Errorf(fault.CodeInvalidArgument, "execution.input_file applies only to %s", upload.Action).Unsent()
			}
			if hasMembers(args.Params) {
				return pipeline.Reply[any]{}, fault.Errorf(fault.CodeInvalidArgument, "give either params or execution.input_file, not both: the automatic upload builds its own params").Unsent()
			}
			// Checked now so a bad path is refused before a task exists;
			// the task checks again when it opens the file.
			_, info, err := upload.Resolve(d.Config.UploadRoot, args.Execution.InputFile)
			if err != nil {
				return pipeline.Reply[any]{}, unsent(err)
			}
			if info.Size() > d.Config.MaxFileBytes {
				return pipeline.Reply[any]{}, fault.Errorf(fault.CodeLimit, "the file is %d bytes, over the file limit of %d", info.Size(), d.Config.MaxFileBytes).Unsent()
			}
		}
		if c.Detach == nil {
			return pipeline.Reply[any]{}, fault.Errorf(fault.CodeUnsupported, "background tasks need SNOWLUMA_MCP_TASK_DIR; run it with invoke_action").Unsent()
		}
		h, err := c.Detach(c)
		if err != nil {
			return pipeline.Reply[any]{}, err
		}
		return pipeline.Reply[any]{Task: h}, nil
	})
}

// unsent marks a refusal raised before anything was sent.
func unsent(err error) error {
	var f *fault.Error
	if errors.As(err, &f) {
		return f.Unsent()
	}
	return err
}
