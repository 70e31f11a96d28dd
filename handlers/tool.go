// Package handlers holds one file per MCP tool. A handler decodes its
// already-validated arguments, does the one thing its tool is for and returns
// a payload; gating, validation, tracing, timeouts and diagnostics belong to
// the stages around it.
package handlers

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/download"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Deps are the long-lived services handlers use.
type Deps struct {
	Catalog *catalog.Catalog
	Config  *config.Config
	// Quota is the download directory's byte budget, shared by all calls.
	Quota *download.Quota
}

// Tool is one tool: what clients see, what the stages see, and its handler.
type Tool struct {
	Def    *mcp.Tool
	Spec   *pipeline.Tool
	Handle pipeline.Handler
}

// ForMode returns the tools a server in mode offers, in listing order.
func ForMode(d *Deps) []Tool {
	tools := []Tool{
		ListActions(d), GetAction(d), SearchActions(d), ListCategories(d), GetRuntimeInfo(d),
	}
	if d.Config.ExecutionEnabled() {
		tools = append(tools, QueryAction(d), withInput(QueryAction(d)))
	}
	if d.Config.WriteEnabled() {
		tools = append(tools, InvokeAction(d), withInput(InvokeAction(d)))
	}
	return tools
}

// newTool assembles a Tool from its parts; input and result are JSON Schemas.
func newTool(name, description string, route pipeline.Route, access pipeline.Access, ann *mcp.ToolAnnotations,
	input, result string, h pipeline.Handler) Tool {
	in := json.RawMessage(input)
	return Tool{
		Def: &mcp.Tool{
			Name: name, Description: description, Annotations: ann,
			InputSchema: in, OutputSchema: outputSchema(result),
		},
		Spec:   &pipeline.Tool{Name: name, Route: route, Access: access, InputSchema: in},
		Handle: h,
	}
}

// diagnosticsSchema describes the verdict beside every result.
const diagnosticsSchema = `{"type":"object","description":"Verdict of the call.","properties":{
 "outcome":{"enum":["success","failed","unknown"],"description":"success: done and confirmed; failed: not done; unknown: not confirmed either way."},
 "kind":{"type":"string","description":"Known failure category, e.g. invalid_argument, mode_denied, unknown_action, business_failure, timeout, transport."},
 "message":{"type":"string","description":"What went wrong."},
 "next_step":{"type":"string","description":"What to do about it."}},
 "required":["outcome"],"additionalProperties":false}`

// outputSchema wraps a tool's result schema in the {result, diagnostics}
// envelope. The result is null for tool errors, so every result schema must
// admit null.
func outputSchema(result string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"result":%s,"diagnostics":%s},"required":["result","diagnostics"],"additionalProperties":false}`, result, diagnosticsSchema))
}

// decode reads validated arguments into v. It can still fail on shapes JSON
// Schema allows but Go does not (5.0 for an integer).
func decode(args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return fault.Wrap(fault.CodeInvalidArgument, "handler", err, "invalid arguments")
	}
	return nil
}

func boolPtr(b bool) *bool { return &b }

var readOnlyDocs = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}
