package handlers

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

type unsubscribeArgs struct {
	URI string `json:"uri" jsonschema:"subscribe_events 返回的资源 URI（event resource URI），不带 ?after。" schema:"minLength=1,maxLength=200"`
}

type released struct {
	URI      string `json:"uri"`
	Released bool   `json:"released"`
	// Remaining is how many event resources are still active; at 0 the
	// event connection is closed.
	Remaining int `json:"remaining"`
}

// UnsubscribeEvents releases an event resource and its buffer; the last
// release closes the event connection.
func UnsubscribeEvents(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[unsubscribeArgs, released](pipeline.Spec{
		Name:        "unsubscribe_events",
		Description: "释放事件资源（release an event resource）及其缓存；释放最后一个时关闭事件 WebSocket。适用于两代协议的客户端。",
		Summary: lang.Text{
			EN: "Stops following live events.",
			ZH: "取消订阅实时事件。",
		},
		MinMode: config.ModeRead,
		// Not read-only (it ends a subscription), yet not destructive: it
		// releases a buffer in this process and touches nothing of the
		// account. Said explicitly: Codex counts a missing destructiveHint
		// as true and then refuses the tool in `codex exec`.
		Annotations: &mcp.ToolAnnotations{DestructiveHint: boolPtr(false), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, func(ctx context.Context, c *pipeline.Call, args *unsubscribeArgs) (pipeline.Reply[released], error) {
		id, ok := hub.IDOf(args.URI)
		if !ok {
			return pipeline.Reply[released]{}, fault.Errorf(fault.CodeInvalidArgument,
				"uri %s is not an event resource URI: pass the uri subscribe_events returned (%s<id>, without ?after)", fault.Quote(args.URI), hub.URIPrefix).Unsent()
		}
		if err := d.Events.Release(id); errors.Is(err, hub.ErrNotFound) {
			return pipeline.Reply[released]{}, fault.Errorf(fault.CodeInvalidArgument,
				"no active event resource %s: it was never created or is already released; resources/list shows the active ones", fault.Quote(args.URI)).Unsent()
		}
		return pipeline.Reply[released]{Payload: released{URI: args.URI, Released: true, Remaining: len(d.Events.List())}}, nil
	})
}
