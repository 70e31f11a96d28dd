package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Render turns a finished call's result into the MCP tool result. It is the
// only place that does: tools/call answers with it, and a background task
// stores exactly what it makes (task.Render) for tasks/get to hand back, so
// a result reads the same whichever way it was fetched. r must have passed
// the diagnostics stage (its payload encoded, its verdict set).
func Render(r *Result) *mcp.CallToolResult {
	meta := make(mcp.Meta, len(r.Meta))
	for k, v := range r.Meta {
		meta[k] = v
	}
	if len(r.InputRequests) > 0 {
		// A continuation, not a completed result: the SDK sends it as
		// input_required to modern clients and turns it into
		// elicitation/create for legacy ones. It must carry no content.
		return &mcp.CallToolResult{Meta: meta, InputRequests: r.InputRequests, RequestState: r.RequestState}
	}
	payload, ok := r.Payload.(json.RawMessage)
	if !ok || len(payload) == 0 {
		payload = json.RawMessage("null")
	}
	var content []mcp.Content
	if r.IsError {
		content = []mcp.Content{&mcp.TextContent{Text: verdictText(r.Text, r.Diagnostics)}}
	} else {
		// Compact: indentation costs a model tokens and says nothing.
		var buf bytes.Buffer
		text := string(payload)
		if json.Compact(&buf, payload) == nil {
			text = buf.String()
		}
		content = []mcp.Content{&mcp.TextContent{Text: text}}
		if r.Diagnostics.Outcome != "" && r.Diagnostics.Outcome != OutcomeSuccess {
			// The payload is SnowLuma's envelope (a business failure) and
			// stays whole JSON; the verdict, which most hosts show a model
			// only as text, follows it.
			content = append(content, &mcp.TextContent{Text: verdictText(r.Diagnostics.Message, r.Diagnostics)})
		}
	}
	return &mcp.CallToolResult{
		Meta:              meta,
		Content:           content,
		StructuredContent: structured{Result: payload, Diagnostics: r.Diagnostics},
		IsError:           r.IsError,
	}
}

// verdictText is the text of a failure or an unconfirmed result: what
// happened, whether SnowLuma may have acted, and what to do next, under the
// names structuredContent.diagnostics gives them.
func verdictText(message string, d Diagnostics) string {
	var b strings.Builder
	b.WriteString(message)
	if o := outcomes[d.Outcome]; o != "" {
		fmt.Fprintf(&b, "\noutcome: %s (%s)", d.Outcome, o)
	}
	if d.Kind != "" {
		// The kind too: Claude Code shows a model only this text of an
		// error, so it reads there what Codex's model reads in
		// structuredContent.
		b.WriteString("\nkind: " + d.Kind)
	}
	if d.RetryAfterMS > 0 {
		fmt.Fprintf(&b, "\nretry_after_ms: %d", d.RetryAfterMS)
	}
	if d.NextStep != "" {
		b.WriteString("\nnext_step: " + d.NextStep)
	}
	return b.String()
}

// outcomes glosses the outcomes a verdict's text names.
var outcomes = map[Outcome]string{
	OutcomeFailed:  "not done",
	OutcomeUnknown: "not confirmed: SnowLuma may have acted, so check before repeating a write",
}

// structured is the structuredContent of every completed result.
type structured struct {
	Result      json.RawMessage `json:"result"`
	Diagnostics Diagnostics     `json:"diagnostics"`
}

// diagnosticsSchema describes the verdict beside every result. Every tool's
// output schema repeats it, and no client resolves a $ref to a schema
// outside the one document, so it is as short as it can be: hosts do not
// show output schemas to models, and the verdict's text (verdictText)
// explains itself.
const diagnosticsSchema = `{"type":"object","description":"Verdict: outcome (failed: not done; unknown: may have acted), failure kind, message, next_step; retry_after_ms and held_ms for paced sends.","properties":{` +
	`"outcome":{"enum":["success","failed","unknown"]},"kind":{"type":"string"},"message":{"type":"string"},"next_step":{"type":"string"},` +
	`"retry_after_ms":{"type":"integer","minimum":1},"held_ms":{"type":"integer","minimum":1}},"required":["outcome"],"additionalProperties":false}`

// OutputSchema wraps a tool's result schema in the {result, diagnostics}
// wrapper that Render produces. The result is null for tool errors, so
// every result schema must admit null.
func OutputSchema(result string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"result":%s,"diagnostics":%s},"required":["result","diagnostics"],"additionalProperties":false}`, result, diagnosticsSchema))
}
