package pipeline

import (
	"context"
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
// acts AtAdmission too also acts once on every admission; a stage that
// acts PerCall acts once per call, refused admissions included.
//
// State a stage hands to a later stage or to the handler is a field of
// Call.
type Stage interface {
	// Name is stable: the order tests name the stages by it.
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
	// PerCall stages record every call once (its log line, a count): a
	// call that does its work in the work, like InWork; a background call
	// refused at its admission, which has no work, on the admission. There
	// they meet the refusal exactly where a synchronous call refused by
	// the same check would have met them, and only after it was decided
	// (OnRefusal), so they never see an admitted call twice.
	PerCall
)

// OnRefusal is a PerCall stage's place in an admission's chain: the call
// passes it untouched on its way in, and the stage acts only when the
// admission refused the call (no task started), around that refusal, as it
// would around a synchronous call that the same check refused. An admitted
// call is left to the task's run, which passes the stage in the work.
func OnRefusal(s Stage) Stage { return onRefusal{s} }

type onRefusal struct{ Stage }

// Wrap implements Stage: the stage is wrapped once, around a handler that
// answers with the refusal the admission came to.
func (s onRefusal) Wrap(t *Tool, next Handler) Handler {
	replay := s.Stage.Wrap(t, func(_ context.Context, c *Call) (*Result, error) {
		a := c.refusal
		c.refusal = nil
		return a.r, a.err
	})
	return func(ctx context.Context, c *Call) (*Result, error) {
		r, err := next(ctx, c)
		if err == nil && r != nil && r.Task != nil {
			return r, nil // admitted: the task's run passes the stage
		}
		c.refusal = &answer{r, err}
		return replay(ctx, c)
	}
}

// Chain composes stages so that stages[0] is outermost: a request meets the
// stages in list order and the result travels back in reverse order.
func Chain(stages ...Stage) func(t *Tool, h Handler) Handler {
	return func(t *Tool, h Handler) Handler {
		for i := len(stages) - 1; i >= 0; i-- {
			h = stages[i].Wrap(t, h)
		}
		return h
	}
}
