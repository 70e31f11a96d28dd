package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

// Call is the explicit per-call state that stages fill in and handlers read.
// It holds no reference to the MCP request it came from: whoever starts a
// call (the server for tools/call, the task runner for a background task's
// run) fills in the Request and the Hooks, so a call can run on after its
// request has been answered. Its three parts say who fills each field and
// when; their fields are promoted, so code reads c.Action, not c.Resolved.Action.
type Call struct {
	Request
	Hooks
	Resolved
}

// Request is what the starter of a call copies in before the chain runs:
// the server from a tools/call, the task runner from the admitted call it
// runs. Stages read it; only the arguments stage touches it, to turn absent
// arguments into an empty object.
type Request struct {
	// Tool is the definition of the tool being called.
	Tool *Tool
	// Arguments are the raw tool arguments as sent (an object after the
	// arguments stage). Continuation state is bound to them.
	Arguments json.RawMessage
	// Client is what the caller declared about itself.
	Client Client
	// Meta is the caller's request _meta (trace context lives there).
	Meta map[string]any
	// Resume carries the answer to an earlier question to the user; nil on
	// a first attempt.
	Resume *Resume
}

// Hooks are how a call talks back to whoever waits for it, set by its
// starter: the server binds them to the client's session, the task runner
// to the task's record. A nil hook means nobody listens.
type Hooks struct {
	// Notify delivers progress to whoever waits for it (the client's
	// session, or a task record); nil when nobody asked for progress.
	Notify Notifier
	// Announce tells whoever asked for progress why the call is not moving
	// yet (a send waiting for its budget), as a progress notification with
	// a message; nil when nobody asked for progress.
	Announce func(ctx context.Context, message string) error
	// Queued hears that the call waits for one of the n stream slots
	// (waiting true) and that it got one (false); a background task, which
	// nobody watches, says so in its status. Nil when nobody asks.
	Queued func(waiting bool, n int)
	// Trail, when set, is told durably what the transfer is about to leave
	// behind and how it was cleaned up (see Trail). Set by the task runner;
	// nil for synchronous calls.
	Trail Trail
	// Detach starts the work of an admitted background call as a task and
	// returns its handle; the task runs the tool this call's tool Runs.
	// The server sets it on the admission of a tool that Detaches; it is
	// nil on every other call.
	Detach func(c *Call) (*TaskHandle, error)
}

// Resolved is what the stages work out on the way in, each field set by
// the stage named beside it, for the stages after it and the handler. A
// background task's run starts with none of it: its chain resolves it again.
type Resolved struct {
	// Args is the tool's typed argument value, decoded once by the
	// arguments stage.
	Args any
	// ActionName is the action an execution call names, as given (arguments).
	ActionName string
	// Params are the OneBot params of an execution call, taken from the
	// arguments (arguments), completed by the user (input) and validated
	// against the action's input schema (params).
	Params json.RawMessage
	// ParamsBuilt says the handler builds the params itself (an automatic
	// upload), so there are none to complete or validate (arguments).
	ParamsBuilt bool
	// Action is the catalog action the call targets, resolved by the gate
	// (aliases resolve to their target).
	Action *catalog.Action

	// Span identifies this call in the W3C trace (trace).
	Span trace.SpanContext
	// TraceNote is a fixed diagnostic when the caller's trace metadata was
	// invalid; the call still runs with a fresh trace (trace).
	TraceNote string
	// Held is how long a stage held the call before it was sent (pace);
	// the diagnostics stage records it (held_ms).
	Held time.Duration
	// Progress reports transferred amounts (bytes or frames) and the known
	// total (0 when unknown). The progress stage always sets it; without a
	// Notify it does nothing.
	Progress func(done, total int64)
	// OneBot executes requests for this call, with the call's trace
	// headers bound (stages/bind). Nil in docs mode.
	OneBot onebot.Executor
}

// Queue reports a change in the call's wait for a stream slot to Queued.
func (c *Call) Queue(waiting bool, n int) {
	if c.Queued != nil {
		c.Queued(waiting, n)
	}
}

// Client is what a caller declared about itself, per request.
type Client struct {
	// Modern is true for requests of the 2026-07-28 protocol.
	Modern bool
	// Protocol is the protocol version the client speaks: a 2026-07-28
	// request's own, a legacy client's as its initialize negotiated it
	// (2025-06-18, 2025-11-25 …); "" when the caller did not say.
	Protocol string
	// caps reads the client's capabilities for this request when asked:
	// decoding them from a modern request's _meta costs more than most
	// calls need to pay, and the few stages that ask, ask once.
	caps func() *mcp.ClientCapabilities
}

// NewClient describes a caller; caps is read only when a stage asks (nil
// means the client declared none).
func NewClient(modern bool, caps func() *mcp.ClientCapabilities) Client {
	return Client{Modern: modern, caps: caps}
}

// Capabilities are the client's capabilities for this request; nil when it
// declared none.
func (c Client) Capabilities() *mcp.ClientCapabilities {
	if c.caps == nil {
		return nil
	}
	return c.caps()
}

// FormElicitation reports whether the client can answer a form question: it
// declares elicitation.form, or an empty elicitation object (which means form).
// The input stage asks it because the SDK sends input_required without
// checking (SDK contract test: TestSDKSendsInputRequiredWithoutCheckingElicitation
// in cmd/snowluma-mcp/internal/server).
func (c Client) FormElicitation() bool {
	e := c.Capabilities()
	if e == nil || e.Elicitation == nil {
		return false
	}
	return e.Elicitation.Form != nil || e.Elicitation.URL == nil
}

// Resume is a retry that answers an earlier question.
type Resume struct {
	// State is the continuation state the question carried.
	State string
	// Responses are the client's answers, by input request key.
	Responses mcp.InputResponseMap
}

// Notifier delivers one progress report: done so far and the total (0 when
// unknown).
type Notifier func(ctx context.Context, done, total int64) error

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
	// RetryAfterMS is how long until the same call could succeed (a
	// refused send); absent otherwise.
	RetryAfterMS int64 `json:"retry_after_ms,omitempty"`
	// HeldMS is how long the call was held before it was sent (a send
	// waiting for its budget); absent when it was not held.
	HeldMS int64 `json:"held_ms,omitempty"`
}

// Note adds a remark to the message, after what it already says: how a
// stage reports something that went wrong beside a call that did not fail
// (a progress notification that could not be delivered).
func (d *Diagnostics) Note(remark string) {
	if d.Message != "" {
		remark = d.Message + "; " + remark
	}
	d.Message = remark
}

// Result is what a handler produces and what travels back out through the
// stages before Render turns it into an MCP tool result.
type Result struct {
	// Payload is the tool's payload: a Go value from the handler, raw JSON
	// once the diagnostics stage has encoded it. Nil for tool errors.
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
	// Task, when set, is the handle of a background task the call started
	// (only a Detaches tool's handler sets it): the answer is that handle
	// (resultType "task"), and Render is not used. A stage on the
	// admission's chain that records each call leaves such an answer to the
	// task's run, which passes the stage again with the work's own result.
	Task *TaskHandle
}

// TaskHandle is what a client is told about a background task when it
// starts: enough to poll it (tasks/get) or listen for it. The task's own
// run goes through the chain of the tool its Detaches tool names (Spec.Runs).
type TaskHandle struct {
	ID            string
	Status        string
	StatusMessage string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}
