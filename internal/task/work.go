package task

// What a task's run needs from the tool that runs it, declared here so
// that the task store and its runner stand on the ground floor and import
// nothing above it: the server, which knows both the pipeline and this
// package, adapts the one to the other
// (cmd/snowluma-mcp/internal/server/tasks).

import "context"

// Work is one task's run: the call the task stands for, made with hooks
// that report to the task's record. It returns the run's result, nil when
// it produced none.
type Work func(ctx context.Context, hooks Hooks) (Result, error)

// Hooks are how a run reports to its task's record while it runs.
type Hooks struct {
	// Progress keeps the latest progress in the task's status message.
	Progress func(ctx context.Context, done, total int64) error
	// Queued hears that the run waits for one of the n stream slots
	// (waiting true) and that it got one (false).
	Queued func(waiting bool, n int)
	// Trail is told durably what the transfer is about to leave behind,
	// and how its cleanup went.
	Trail Trail
}

// Trail hears, as it happens, what a transfer may leave behind if it
// stops half-way, and how its cleanup went (trail.go records it). Its
// methods match download.Tracker and upload.Tracker.
type Trail interface {
	Partial(path string) error
	Removed(path string, err error)
	Stream(id string) error
	Reset(id string, err error)
}

// Result is a finished run's tool result, as far as its record cares.
type Result interface {
	// Failed reports a tool error (the result's isError).
	Failed() bool
	// Outcome is the result's outcome word ("success", "failed", ...).
	Outcome() string
	// Message is the result's diagnostic message, "" when it has none.
	Message() string
	// Stored is the body tasks/get hands back for the result (Render).
	Stored() ([]byte, error)
}
