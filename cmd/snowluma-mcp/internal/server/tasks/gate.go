package tasks

// Who may see and use the tasks extension, decided per request: the task
// tools in tools/list, calls to them, and the capability in server/discover.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// CodeMissingCapability is the 2026-07-28 error for a request that needs
// a client capability it did not declare.
const CodeMissingCapability = -32021

// ErrNeedsTasks refuses a request that uses the tasks extension without
// declaring it on the request itself.
var ErrNeedsTasks = &jsonrpc.Error{
	Code:    CodeMissingCapability,
	Message: "this needs the tasks extension: send a 2026-07-28 request whose _meta clientCapabilities declare extensions {\"" + generation.TasksExtension + "\": {}}",
	Data:    json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + generation.TasksExtension + `":{}}}}`),
}

// Gate shows the task tools only to requests that may use them and
// serves invoke_action_background's answer, a task handle, which the SDK's
// tool path cannot express. Everyone else sees and gets the synchronous
// tools only. tools/list stays private with its usual lifetime: it varies
// only with the declaration the same client sends on every request. The
// SDK has no tasks extension (SDK contract test: TestSDKHasNoTaskMethods).
func Gate(tools map[string]*pipeline.Tool, background func(context.Context, *mcp.CallToolRequest) (mcp.Result, error)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/list":
				res, err := next(ctx, method, req)
				if l, ok := res.(*mcp.ListToolsResult); ok && err == nil && !generation.Tasks(req) {
					kept := make([]*mcp.Tool, 0, len(l.Tools))
					for _, t := range l.Tools {
						if tl := tools[t.Name]; tl == nil || !tl.Tasks {
							kept = append(kept, t)
						}
					}
					cp := *l
					cp.Tools = kept
					return &cp, nil
				}
				return res, err
			case "tools/call":
				r, ok := req.(*mcp.CallToolRequest)
				if !ok || r.Params == nil {
					break
				}
				tl := tools[r.Params.Name]
				if tl == nil || !tl.Tasks {
					break
				}
				if !generation.Tasks(req) {
					if generation.Modern(req) {
						return nil, ErrNeedsTasks
					}
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", r.Params.Name)}
				}
				if tl.Detaches {
					return background(ctx, r)
				}
			case "server/discover":
				res, err := next(ctx, method, req)
				if d, ok := res.(*mcp.DiscoverResult); ok && err == nil && generation.Tasks(req) && d.Capabilities != nil {
					caps := *d.Capabilities
					caps.Extensions = maps.Clone(caps.Extensions)
					if caps.Extensions == nil {
						caps.Extensions = map[string]any{}
					}
					caps.Extensions[generation.TasksExtension] = map[string]any{}
					cp := *d
					cp.Capabilities = &caps
					return &cp, nil
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	}
}
