package pipeline

import (
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/onebot"
)

// Tool describes a registered tool as the stages need to see it.
type Tool struct {
	// Name is the MCP tool name.
	Name string
	// Access says which mode the tool needs; the gate stage enforces it.
	Access Access
	// Route says whether and how the tool runs OneBot actions.
	Route Route
	// Input marks the *_with_input tools, which may ask the user for
	// missing required params.
	Input bool
	// InputSchema is the JSON Schema of the tool's arguments; the validation
	// stage enforces it.
	InputSchema json.RawMessage
}

// Route is how a tool reaches SnowLuma.
type Route int

const (
	// RouteNone tools never run actions.
	RouteNone Route = iota
	// RouteQuery tools run read-only, non-stream actions named in their
	// "action" argument.
	RouteQuery
	// RouteInvoke tools run any catalog action named in their "action" argument.
	RouteInvoke
)

// Access is the least mode a tool needs.
type Access int

const (
	// AccessDocs tools run in every mode and never contact SnowLuma.
	AccessDocs Access = iota
	// AccessRead tools run in read and write mode and only run read-only actions.
	AccessRead
	// AccessWrite tools run only in write mode.
	AccessWrite
)

// Call is the explicit per-call state that stages fill in and handlers read.
type Call struct {
	// Tool is the definition of the tool being called.
	Tool *Tool
	// Request is the SDK request as received; nil in unit tests that do not need it.
	Request *mcp.CallToolRequest
	// Arguments are the raw tool arguments (an object, never empty after the
	// validation stage).
	Arguments json.RawMessage
	// Started is when the call entered the pipeline.
	Started time.Time

	// Span identifies this call in the W3C trace; set by the trace stage.
	Span trace.SpanContext
	// TraceNote is a fixed diagnostic when the caller's trace metadata was
	// invalid (the call still runs with a fresh trace).
	TraceNote string

	// Action is the catalog action the call targets, for execution tools,
	// resolved by the gate stage (aliases resolve to their target).
	Action *catalog.Action
	// Params are the OneBot params of an execution call, validated against
	// the action's input schema by the validation stage.
	Params json.RawMessage

	// OneBot executes requests for this call; set by the execution stage with
	// the call's trace headers bound. Nil in docs mode.
	OneBot onebot.Executor

	// Progress reports transferred amounts (bytes or frames) and the known
	// total (0 when unknown). The progress stage always sets it; without a
	// progress token it does nothing.
	Progress func(done, total int64)
}

// Outcome is the diagnostics outcome of a completed call.
type Outcome string

const (
	// OutcomeSuccess means the call did what was asked and the reply confirmed it.
	OutcomeSuccess Outcome = "success"
	// OutcomeFailed means the call did not do what was asked.
	OutcomeFailed Outcome = "failed"
	// OutcomeUnknown means the reply does not confirm either way (an
	// asynchronous acknowledgement, or a write whose wait was cut short).
	OutcomeUnknown Outcome = "unknown"
)

// Diagnostics is the machine-readable verdict beside every result.
type Diagnostics struct {
	Outcome  Outcome `json:"outcome"`
	Kind     string  `json:"kind,omitempty"`
	Message  string  `json:"message,omitempty"`
	NextStep string  `json:"next_step,omitempty"`
}

// Result is what a handler produces and what travels back out through the
// stages before it becomes an MCP tool result.
type Result struct {
	// Payload is the tool's original payload: a Go value or raw JSON. Nil for
	// tool errors.
	Payload any
	// Diagnostics is filled by the handler for business outcomes and by the
	// diagnostics stage otherwise.
	Diagnostics Diagnostics
	// IsError marks an MCP tool error (transport or tool failure).
	IsError bool
	// Text replaces the pretty-printed payload in the text block; used for
	// tool errors, whose payload is null.
	Text string
	// Meta is copied into the result's _meta.
	Meta map[string]any
	// InputRequests and RequestState make the result an input_required
	// continuation instead of a completed result.
	InputRequests mcp.InputRequestMap
	RequestState  string
}
