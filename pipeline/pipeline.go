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
// A call of a tool that Detaches (a background call) is admitted by one
// pass through the stages that act AtAdmission (stages.Admission), whose
// handler starts a task; the task then runs the work once, through the
// whole chain of the tool it Runs. A synchronous call passes the whole
// chain once. So a stage that acts InWork (the default) acts exactly once
// per call that does its work, and never on an admission; a stage that
// acts AtAdmission too also acts once on every admission.
//
// State a stage hands to a later stage or to the handler is a field of
// Call.
type Stage interface {
	// Name is stable: it appears in error reports and in the order test.
	Name() string
	// Acts says on which passes of a background call the stage acts.
	Acts() Acts
	// Wrap returns a handler that does the stage's work for tool t around
	// next. It is called once per tool and chain, when the tool is
	// registered, so a stage reads the tool's policy here and a stage that
	// has nothing to do for t returns next unchanged.
	Wrap(t *Tool, next Handler) Handler
}

// Acts says on which passes of a background call a stage acts.
type Acts uint8

const (
	// InWork stages act on the pass that does the call's work only: a
	// synchronous call's, or a background task's run. Whatever spends or
	// records something per call (a stream slot, a send budget, a request
	// to SnowLuma, the call's log line) acts here, so it acts once.
	InWork Acts = iota
	// AtAdmission stages act on a background call's admission as well,
	// before its task exists: the checks that refuse a call before a task
	// is recorded, and what shapes the admission's answer (its trace, its
	// diagnostics). They act again on the task's run, which checks the call
	// it runs like any other; nothing they do is spent.
	AtAdmission
)

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
// stages that need no state of their own. Its zero Where is InWork.
type StageFunc struct {
	StageName string
	Where     Acts
	WrapFunc  func(t *Tool, next Handler) Handler
}

// Name implements Stage.
func (s StageFunc) Name() string { return s.StageName }

// Acts implements Stage.
func (s StageFunc) Acts() Acts { return s.Where }

// Wrap implements Stage.
func (s StageFunc) Wrap(t *Tool, next Handler) Handler { return s.WrapFunc(t, next) }
