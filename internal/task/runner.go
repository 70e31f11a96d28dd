package task

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// MaxRunning is how many tasks run at once. A fifth start is refused at
// once (nothing recorded, nothing sent) rather than queued: a queued task
// would sit "working" without working, and the agent could not tell.
const MaxRunning = 4

// Runner runs background tasks on the stage chain of the tool they stand
// for (invoke_action, named by the starting tool's Spec.Runs), each with
// its own context, detached from the request that started it, and records
// how they end. It is built with everything it uses: the server, which
// wraps every tool once, hands it that tool's chain and the observer of
// task status.
type Runner struct {
	store   *Store
	log     io.Writer
	tool    *pipeline.Tool
	run     pipeline.Handler
	observe func(Record)

	mu       sync.Mutex
	jobs     map[string]*job
	stopping bool
	wg       sync.WaitGroup
}

type job struct {
	cancel    context.CancelFunc
	cancelled bool
	// queued says the task waits for a stream slot: nothing was sent.
	queued bool
	trail  *trail
}

// NewRunner returns a runner recording into store whose tasks run tool
// through run, its whole wrapped chain. observe, when not nil, hears of
// every task that ends (for notifications); it is called on the task's own
// goroutine.
func NewRunner(store *Store, log io.Writer, tool *pipeline.Tool, run pipeline.Handler, observe func(Record)) *Runner {
	return &Runner{store: store, log: log, tool: tool, run: run, observe: observe, jobs: map[string]*job{}}
}

// Store is the runner's store.
func (r *Runner) Store() *Store { return r.store }

// Start records a task for c (already through the gates and validation of
// the tool that starts it) and runs c's arguments on the task tool's chain.
// The record is durable before anything runs.
func (r *Runner) Start(c *pipeline.Call) (Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return Record{}, fault.Errorf(fault.CodeUnsupported, "the server is stopping and starts no more tasks; nothing was sent to SnowLuma").Unsent()
	}
	if len(r.jobs) >= MaxRunning {
		return Record{}, fault.Errorf(fault.CodeLimit,
			"%d background tasks are already running, the most at once; this one was not started or recorded, and nothing was sent to SnowLuma. Wait for one to end (poll tasks/get, or see list_tasks) and start it again, or run it now with invoke_action", MaxRunning).Unsent()
	}
	action := c.ActionName
	if c.Action != nil {
		action = c.Action.Name
	}
	rec, err := r.store.Create(c.Tool.Name, action)
	if err != nil {
		return Record{}, fault.Wrap(fault.CodeInternal, err,
			"the task could not be recorded durably in SNOWLUMA_MCP_TASK_DIR, so it was not started and nothing was sent to SnowLuma; free space or fix the directory's permissions and start it again").Unsent()
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{cancel: cancel, trail: &trail{store: r.store, id: rec.ID}}
	r.jobs[rec.ID] = j
	r.wg.Add(1)
	call := &pipeline.Call{
		Request: pipeline.Request{Tool: r.tool, Arguments: c.Arguments, Client: c.Client, Meta: carried(c)},
		Hooks:   pipeline.Hooks{Notify: r.progress(rec.ID), Queued: r.queued(rec.ID, j), Trail: j.trail},
	}
	go r.work(ctx, rec.ID, call, j)
	go r.watch(ctx, rec.ID, j)
	return rec, nil
}

// cancelPoll is how often a running task looks for a cancel request that
// another server left in the directory.
const cancelPoll = 200 * time.Millisecond

// watch cancels task id, as tasks/cancel here would, once another server
// leaves a cancel request for it; it ends with the task.
func (r *Runner) watch(ctx context.Context, id string, j *job) {
	t := time.NewTicker(cancelPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if r.store.cancelRequested(id) {
				r.cancelJob(j)
				return
			}
		}
	}
}

// carried makes the task's call a child of the call that started it, in
// the same trace; a progress token belongs to the request, not the task.
func carried(c *pipeline.Call) map[string]any {
	out := map[string]any{}
	if c.Span.IsValid() {
		out["traceparent"] = span.Traceparent(c.Span)
	} else if v, ok := c.Meta["traceparent"]; ok {
		out["traceparent"] = v
	}
	if v, ok := c.Meta["tracestate"]; ok {
		out["tracestate"] = v
	}
	return out
}

// progress keeps the latest progress in the task's status message.
func (r *Runner) progress(id string) pipeline.Notifier {
	return func(_ context.Context, done, total int64) error {
		if total > 0 {
			r.store.Note(id, fmt.Sprintf("running: %d of %d transferred", done, total))
		} else {
			r.store.Note(id, fmt.Sprintf("running: %d transferred", done))
		}
		return nil
	}
}

// queued keeps a task's status message honest while it waits for a
// stream slot: it is not running, and nothing has been sent.
func (r *Runner) queued(id string, j *job) func(bool, int) {
	return func(waiting bool, n int) {
		r.mu.Lock()
		j.queued = waiting
		r.mu.Unlock()
		if waiting {
			r.store.Note(id, fmt.Sprintf("waiting for a free stream slot: all %d are in use by other transfers, so nothing has been sent to SnowLuma yet", n))
		} else {
			r.store.Note(id, "running")
		}
	}
}

func (r *Runner) work(ctx context.Context, id string, call *pipeline.Call, j *job) {
	defer r.wg.Done()
	res, err := r.run(ctx, call)
	r.mu.Lock()
	delete(r.jobs, id)
	cancelled, stopping, queued := j.cancelled, r.stopping, j.queued
	r.mu.Unlock()
	j.cancel()
	defer r.store.clearCancel(id)
	var rec Record
	if queued {
		rec, err = r.unstarted(id, res, cancelled, stopping)
	} else {
		rec, err = r.record(ctx, id, res, err, cancelled, stopping, j.trail.fate())
	}
	if err != nil {
		fmt.Fprintf(r.log, "snowluma-mcp task=%s could not record how it ended: %v\n", id, err)
	}
	if err != nil && !rec.Status.Terminal() {
		msg := fmt.Sprintf("the task ended, but how it ended could not be saved in SNOWLUMA_MCP_TASK_DIR (%v). SnowLuma may have acted: check the download directory or the remote side before starting it again", err)
		if rec, err = r.store.Fail(id, msg); err != nil {
			// Not even the failure can be written: this process still
			// tells the truth, and a restart reads the record as unknown.
			rec = r.store.lost(id, msg+"; after a restart it reads as failed with the remote outcome unknown")
		}
	}
	r.notify(rec)
}

// record stores how a task ended; fate says what became of what its
// transfer had begun (see trail.fate).
func (r *Runner) record(ctx context.Context, id string, res *pipeline.Result, err error, cancelled, stopping bool, fate string) (Record, error) {
	interrupted := ctx.Err() != nil && (res == nil || res.IsError)
	switch {
	case interrupted && stopping:
		if fate == "" {
			fate = "The remote outcome is unknown: SnowLuma may have received part of an upload."
		}
		return r.store.Fail(id, "the server stopped while this task was running, so the transfer was cancelled: "+fate+" The task is never replayed; start it again if you still need it.")
	case interrupted && cancelled:
		if fate == "" {
			fate = "it had left nothing behind yet."
		}
		return r.store.Cancel(id, "cancelled on request, and the transfer stopped: "+fate+" Cancelling does not undo what SnowLuma already received.")
	case err != nil || res == nil:
		return r.store.Fail(id, "the task's pipeline produced no result; SnowLuma may have acted, so check before starting it again")
	}
	body, err := Render(res)
	if err != nil {
		return r.store.Fail(id, "the task's result could not be encoded: "+err.Error())
	}
	return r.store.Complete(id, body, Summary(res.IsError, string(res.Diagnostics.Outcome)))
}

// unstarted stores the end of a task that never got a stream slot: nothing
// was sent, so it failed (or was cancelled) without acting.
func (r *Runner) unstarted(id string, res *pipeline.Result, cancelled, stopping bool) (Record, error) {
	switch {
	case cancelled:
		return r.store.Cancel(id, "cancelled on request while waiting for a free stream slot; the transfer never started and nothing was sent to SnowLuma.")
	case stopping:
		return r.store.Fail(id, "the server stopped while this task waited for a free stream slot; the transfer never started and nothing was sent to SnowLuma. The task is never replayed; start it again if you still need it.")
	}
	why := "no stream slot became free"
	if res != nil && res.Diagnostics.Message != "" {
		why = res.Diagnostics.Message
	}
	return r.store.Fail(id, "the task never got a stream slot: "+why+". Start it again when fewer transfers run (or raise SNOWLUMA_MCP_MAX_STREAMS).")
}

// Render is the stored form of a finished call: exactly the tool result
// tools/call returns to a 2026-07-28 client (pipeline.Render, plus the
// resultType the protocol adds), so tasks/get can hand it back unchanged.
func Render(res *pipeline.Result) ([]byte, error) {
	data, err := json.Marshal(pipeline.Render(res))
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte("{")) {
		return nil, fmt.Errorf("a tool result encoded as %.20q", data)
	}
	if bytes.Equal(data, []byte("{}")) {
		return []byte(`{"resultType":"complete"}`), nil
	}
	return append([]byte(`{"resultType":"complete",`), data[1:]...), nil
}

// Cancel asks a running task to stop. It is cooperative: a completion
// already in flight may win. Cancelling an ended task changes nothing. A
// task another live server runs is asked through the directory, and that
// server cancels it.
func (r *Runner) Cancel(id string) (Record, error) {
	rec, err := r.store.Get(id)
	if err != nil {
		return rec, err
	}
	r.mu.Lock()
	j := r.jobs[id]
	r.mu.Unlock()
	switch {
	case j != nil:
		r.cancelJob(j)
	case rec.Status == Working && !r.store.Runs(rec):
		if err := r.store.requestCancel(id); err != nil {
			return rec, fmt.Errorf("the cancel request for task %s could not be left in SNOWLUMA_MCP_TASK_DIR for the server that runs it: %w", id, err)
		}
	}
	return rec, nil
}

// cancelJob cancels a job of this runner.
func (r *Runner) cancelJob(j *job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j.cancelled = true
	j.cancel()
}

// Stop cancels every running task and waits up to grace for them to clean
// up and record their end; later Starts are refused.
func (r *Runner) Stop(grace time.Duration) {
	r.mu.Lock()
	r.stopping = true
	for _, j := range r.jobs {
		j.cancel()
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
	}
}

func (r *Runner) notify(rec Record) {
	if r.observe != nil {
		r.observe(rec)
	}
}
