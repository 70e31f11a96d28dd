package pipeline

import (
	"context"
)

// Handler does the work of one tool call, or of the stages inside the caller.
// ctx carries only cancellation and deadlines; everything else is on the Call.
//
// The contract, for tool handlers and stages alike: a handler returns
// exactly one of a result and an error. A failure is an error (fault.Errorf,
// fault.Wrap), never a result a handler builds itself; the diagnostics stage
// turns every error into a result with diagnostics, so a chain that holds it
// answers every call with a result and a nil error, and whoever runs such a
// chain (the server, the task runner) reads the result without checking.
// NewTool holds a tool's handler to the contract.
type Handler func(ctx context.Context, c *Call) (*Result, error)

// Stage is one cross-cutting concern of a tool call: a name and a wrap.
// Where it runs (every call's chain, and whether a background call's
// admission passes it too) is decided in one place, stages/order.go, not by
// the stage.
//
// State a stage hands to a later stage or to the handler is a field of
// the call's Resolved part.
//
// A stage is named once, by its place in stages/order.go, which is also
// its package's name.
type Stage interface {
	// Wrap returns a handler that does the stage's work for tool t around
	// next. It is called once per tool and chain, when the tool is
	// registered, so a stage reads the tool's policy here and a stage that
	// has nothing to do for t returns next unchanged.
	Wrap(t *Tool, next Handler) Handler
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
