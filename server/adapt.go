package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/envelope"
	"github.com/snowluma/snowluma-mcp/stages/trace"
)

// adapt turns a pipeline handler into an SDK tool handler. Whatever happens
// inside, including a panic in a stage, the client gets a tool result.
func adapt(spec *pipeline.Tool, h pipeline.Handler, now func() time.Time) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		c := &pipeline.Call{Tool: spec, Request: req, Started: now()}
		if req != nil && req.Params != nil {
			c.Arguments = req.Params.Arguments
		}
		defer func() {
			if p := recover(); p != nil {
				res, err = render(c, envelope.Failure(c, fault.Errorf(fault.CodeInternal, "server", "internal error while handling %s", spec.Name))), nil
			}
		}()
		r, err := h(ctx, c)
		if err != nil || r == nil {
			r = envelope.Failure(c, err)
		}
		return render(c, r), nil
	}
}

// structured is the structuredContent of every completed result.
type structured struct {
	Result      json.RawMessage      `json:"result"`
	Diagnostics pipeline.Diagnostics `json:"diagnostics"`
}

// render builds the MCP result: the text block keeps the pretty-printed
// payload, as the predecessor did, and structuredContent adds the verdict.
func render(c *pipeline.Call, r *pipeline.Result) *mcp.CallToolResult {
	payload, err := rawJSON(r.Payload)
	if err != nil {
		r = envelope.Failure(c, fault.Wrap(fault.CodeInternal, "server", err, "encode result"))
		payload = json.RawMessage("null")
	}
	text := r.Text
	if !r.IsError {
		var buf bytes.Buffer
		if json.Indent(&buf, payload, "", "  ") == nil {
			text = buf.String()
		}
	}
	meta := mcp.Meta{}
	for k, v := range r.Meta {
		meta[k] = v
	}
	if _, ok := meta["traceparent"]; !ok && c.Span.IsValid() {
		meta["traceparent"] = trace.Traceparent(c.Span)
	}
	if len(r.InputRequests) > 0 {
		// A continuation, not a completed result: the SDK sends it as
		// input_required to modern clients and turns it into
		// elicitation/create for legacy ones. It must carry no content.
		return &mcp.CallToolResult{Meta: meta, InputRequests: r.InputRequests, RequestState: r.RequestState}
	}
	return &mcp.CallToolResult{
		Meta:              meta,
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: structured{Result: payload, Diagnostics: r.Diagnostics},
		IsError:           r.IsError,
	}
}

// rawJSON keeps raw payloads byte-for-byte (numbers, null, {}) and encodes
// Go values without HTML escaping.
func rawJSON(v any) (json.RawMessage, error) {
	switch p := v.(type) {
	case nil:
		return json.RawMessage("null"), nil
	case json.RawMessage:
		if !json.Valid(p) {
			return nil, fmt.Errorf("payload is not valid JSON")
		}
		return p, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
