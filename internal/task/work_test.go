package task

import "encoding/json"

// The tests write a task's run as a Work of their own, and its result as a
// fakeResult: the runner knows nothing of the pipeline, and the server's
// adaptation of it (cmd/snowluma-mcp/internal/server/tasks/work.go) is
// tested there and end to end.

// fakeResult is a finished run's result as a test states it.
type fakeResult struct {
	failed           bool
	outcome, message string
	// body is the tool result tasks/get would hand back.
	body json.RawMessage
}

func (r fakeResult) Failed() bool            { return r.failed }
func (r fakeResult) Outcome() string         { return r.outcome }
func (r fakeResult) Message() string         { return r.message }
func (r fakeResult) Stored() ([]byte, error) { return Render(r.body) }

// startOf starts a task of invoke_action_background for
// download_file_stream that runs w.
func startOf(r *Runner, w Work) (Record, error) {
	return r.Start("invoke_action_background", "download_file_stream", w)
}
