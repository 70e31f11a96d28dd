package pipeline

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

// Tool is a tool's whole declaration: what clients are shown and the policy
// the stages read when they wrap it. Each part is declared once, by the
// tool's constructor (see NewTool); nothing else decides it again.
type Tool struct {
	// Spec is what the tool declares about itself.
	Spec
	// InputSchema is generated from the tool's argument type; the arguments
	// stage enforces it.
	InputSchema json.RawMessage
	// OutputSchema is the {result, diagnostics} wrapper around Spec.Result.
	OutputSchema json.RawMessage
	// Decode parses arguments that passed InputSchema into the tool's typed
	// argument value.
	Decode func(json.RawMessage) (any, error)
	// Handle does the tool's one job.
	Handle Handler
}

// Actions is how a tool reaches SnowLuma.
type Actions int

const (
	// NoActions tools never run an action named by the caller.
	NoActions Actions = iota
	// ReadActions tools run read-only, non-stream catalog actions.
	ReadActions
	// AnyAction tools run any catalog action, stream actions included.
	AnyAction
)

// Target is implemented by the arguments of tools that run actions: the
// action they name, its OneBot params as given, and whether the handler
// builds the params itself (an automatic upload builds every chunk's), in
// which case there are none to validate.
type Target interface {
	Target() (action string, params json.RawMessage, built bool)
}

// Spec is what a tool declares besides its argument type and handler.
type Spec struct {
	// Name is the MCP tool name.
	Name string
	// Description is shown to clients.
	Description string
	// Summary is the tool's one line for people, where Description is
	// written for the agent: what the user is shown about the tool before
	// any server runs (the .mcpb bundle's tool list, cmd/release), in English
	// and in Simplified Chinese. It never goes over the wire.
	Summary lang.Text
	// MinMode is the least mode the tool needs: it is listed and runs in
	// that mode and every mode above it. config.Mode.Allows decides, for
	// tools/list and for the gate on every call alike.
	MinMode config.Mode
	// Actions says whether and which OneBot actions the tool runs.
	Actions Actions
	// AsksInput lets the input stage ask the user for missing required params.
	AsksInput bool
	// QuotedIDs says the tool's top-level integer arguments are QQ ids,
	// which the arguments stage reads as the params stage reads an
	// action's (schema.Validator.Normalize): "20001" is 20001.
	QuotedIDs bool
	// Annotations are the MCP tool annotations (read-only-ness and so on).
	Annotations *mcp.ToolAnnotations
	// Meta is the tool's optional _meta in tools/list.
	Meta mcp.Meta
	// Result is the JSON Schema of a payload that is data passed through
	// (SnowLuma's reply, a catalog contract) rather than a Go value of the
	// tool's own: set it exactly when the tool's result type is any. It
	// must admit null, the payload of a tool error. Otherwise NewTool
	// derives the schema from the result type.
	Result string
	// Tasks marks a tool of the tasks extension: it exists only with a task
	// directory in write mode, and only requests whose client declares the
	// extension see or call it.
	Tasks bool
	// Detaches says the handler only admits work that runs elsewhere: a
	// background task, which runs the whole chain of the tool named by
	// Runs, once. The tool itself is wrapped in the admission's chain (the
	// stages stages/order.go lists with an admission reason), so nothing
	// that spends sees the admission; its handler starts the task with
	// Call.Detach. TestBackgroundCallsSpendOnce in stages counts it.
	Detaches bool
	// Runs is the tool whose chain a Detaches tool's task runs (set
	// exactly when Detaches is). The server that builds the chains hands
	// that chain to the task runner.
	Runs *Tool
	// Sample is one call of the tool that succeeds and one that fails,
	// which e2e/structured_test.go runs through the binary in every mode
	// that lists the tool (RESULT-1). handlers' TestEveryToolHasASample
	// requires one of every tool a server without tasks or events lists.
	Sample Sample
}

// Sample holds a tool's sample arguments as JSON objects: Good succeeds
// against the e2e fake SnowLuma (whose group is 123456789, e2e/fake's
// GroupID) and Bad is refused.
type Sample struct {
	Good, Bad string
}

// NewTool declares a tool whose arguments decode into A and whose payload
// is an R, as the SDK's AddTool[In, Out] does. A's struct is the input
// schema (see schema.For) and the value the handler reads, parsed once per
// call by the arguments stage; R's is the result schema (schema.ResultFor),
// and the handler's Reply holds an R, so the schema a client validates
// against is the value's own by type. R is any for a payload passed
// through (Spec.Result describes it).
func NewTool[A, R any](s Spec, handle func(ctx context.Context, c *Call, args *A) (Reply[R], error)) *Tool {
	if s.Detaches != (s.Runs != nil) {
		panic("pipeline: tool " + s.Name + " must set Runs exactly when it Detaches")
	}
	passthrough := reflect.TypeFor[R]() == reflect.TypeFor[any]()
	if passthrough != (s.Result != "") {
		panic("pipeline: tool " + s.Name + " must give Spec.Result exactly when its result type is any")
	}
	result := s.Result
	if !passthrough {
		result = string(schema.MustResultFor[R]())
	}
	return &Tool{
		Spec:         s,
		InputSchema:  schema.MustFor[A](),
		OutputSchema: OutputSchema(result),
		Decode:       decodeInto[A],
		Handle: func(ctx context.Context, c *Call) (*Result, error) {
			args, ok := c.Args.(*A)
			if !ok {
				// The arguments stage decodes every call (Tool.Decode);
				// a call that skipped it is a bug, not the agent's.
				return nil, fault.Errorf(fault.CodeInternal, "the tool %s was called without its decoded arguments", s.Name)
			}
			r, err := handle(ctx, c, args)
			if err != nil {
				// The Handler contract, held where a tool's own code
				// meets the pipeline: an error, or a result.
				return nil, err
			}
			return &Result{Payload: r.Payload, Diagnostics: r.Diagnostics, Task: r.Task}, nil
		},
	}
}

// Reply is what a tool's handler hands back when it succeeds: a payload of
// the tool's result type, and what the handler itself adds to the answer.
type Reply[R any] struct {
	// Payload is the tool's result, encoded by the diagnostics stage.
	Payload R
	// Diagnostics carries a business outcome the handler decides (a
	// SnowLuma status that failed, a connection check); the diagnostics
	// stage fills the rest.
	Diagnostics Diagnostics
	// Task is the handle of the background task a Detaches tool started;
	// see Result.Task.
	Task *TaskHandle
}

// decodeInto is Tool.Decode for arguments of type A. The arguments have
// passed A's schema, so schema.Decode may set a free-form params aside
// instead of having encoding/json read it whole.
func decodeInto[A any](raw json.RawMessage) (any, error) {
	v := new(A)
	if len(raw) == 0 {
		return v, nil
	}
	if err := schema.Decode(raw, v); err != nil {
		return nil, fault.Wrap(fault.CodeInvalidArgument, err, "invalid arguments")
	}
	return v, nil
}

// Def is the tool as clients see it in tools/list.
func (t *Tool) Def() *mcp.Tool {
	return &mcp.Tool{
		Name: t.Name, Description: t.Description, Annotations: t.Annotations, Meta: t.Meta,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
	}
}
