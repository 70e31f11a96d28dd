package pipeline

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Handler does the work of one tool call, or of the stages inside the caller.
// ctx carries only cancellation and deadlines; everything else is on the Call.
type Handler func(ctx context.Context, c *Call) (*Result, error)

// Stage is one cross-cutting concern of a tool call.
//
// Two rules every stage follows:
//
//   - A call of a tool that Detaches passes the chain twice: once to be
//     admitted (arguments, gate, params, validation), once as its
//     background task's own run of the tool it Runs. A stage that spends
//     or records something (a slot, a budget token, the call's log line)
//     does it once, on the task's run: for a Detaches tool it returns next
//     unchanged, or acts only on a refused admission (Result.Task nil).
//   - State a stage hands to a later stage or the handler goes on the
//     Call through a Key of its own (values.go), not a new Call field.
type Stage interface {
	// Name is stable: it appears in error reports and in the order test.
	Name() string
	// Wrap returns a handler that does the stage's work for tool t around
	// next. It is called once per tool, when the tool is registered, so a
	// stage reads the tool's policy here and a stage that has nothing to do
	// for t returns next unchanged.
	Wrap(t *Tool, next Handler) Handler
}

// HandlerStage is the stage name on failures a tool's handler returns.
const HandlerStage = "handler"

// Chain composes stages so that stages[0] is outermost: a request meets the
// stages in list order and the result travels back in reverse order.
//
// It also names the stage on every failure: a fault.Error that leaves a
// stage (or the handler, HandlerStage) without a stage of its own gets
// that stage's Name. So a stage, and the code shared below the stages that
// it calls (a stream slot, pipeline.Resolve), raise failures with an empty
// stage and never spell a name: a Resolve failure is the gate's when the
// gate calls it and the handler's when a handler does.
func Chain(stages ...Stage) func(t *Tool, h Handler) Handler {
	return func(t *Tool, h Handler) Handler {
		h = raisedBy(HandlerStage, h)
		for i := len(stages) - 1; i >= 0; i-- {
			h = raisedBy(stages[i].Name(), stages[i].Wrap(t, h))
		}
		return h
	}
}

// raisedBy names stage on a failure of h that nothing inside it named.
func raisedBy(stage string, h Handler) Handler {
	return func(ctx context.Context, c *Call) (*Result, error) {
		r, err := h(ctx, c)
		if err != nil {
			fault.Name(err, stage)
		}
		return r, err
	}
}

// StageFunc adapts a name and a wrapping function to the Stage interface, for
// stages that need no state of their own.
type StageFunc struct {
	StageName string
	WrapFunc  func(t *Tool, next Handler) Handler
}

// Name implements Stage.
func (s StageFunc) Name() string { return s.StageName }

// Wrap implements Stage.
func (s StageFunc) Wrap(t *Tool, next Handler) Handler { return s.WrapFunc(t, next) }
