package handlers

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// InvokeAction runs any catalog action; it exists only in write mode.
func InvokeAction(d *Deps) Tool {
	return newTool("invoke_action",
		"执行任意目录动作（invoke an action），包括发消息、禁言等写操作；仅写模式（write mode）可用。不会自动重试。返回 SnowLuma 原样的 OneBot 响应。",
		pipeline.RouteInvoke, pipeline.AccessWrite,
		&mcp.ToolAnnotations{DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(true)},
		executionInput, envelopeResultSchema,
		func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			if c.Action.Stream {
				return nil, fault.Errorf(fault.CodeUnsupported, "handler",
					"%s is a stream action; stream execution is not available in this build of snowluma-mcp", c.Action.Name)
			}
			return execute(ctx, c)
		})
}
