package task

// The runner: which tasks may start (at most MaxRunning, none once it
// stops), how they are cancelled and stopped. Start goes one way down: it
// records the task (newRun) and hands it, with its work, to the job's
// goroutines (job.go), which run the work with hooks that report to that
// record; the record writes how the run ended (conclude), and never calls
// back into the runner.

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// MaxRunning is how many tasks run at once. A fifth start is refused at
// once (nothing recorded, nothing sent) rather than queued: a queued task
// would sit "working" without working, and the agent could not tell.
const MaxRunning = 4

// Runner runs background tasks, each with its own context, detached from
// the request that started it; each task's record writes how it ended.
// What a task runs comes with its start (Work): the server hands it the
// call of the tool the task stands for (invoke_action, named by the
// starting tool's Spec.Runs) on that tool's chain.
type Runner struct {
	store   *Store
	log     io.Writer
	observe func(Record)

	mu       sync.Mutex
	jobs     map[string]*job
	stopping bool
	wg       sync.WaitGroup
}

// NewRunner returns a runner recording into store. observe, when not nil,
// hears of every task that ends (for notifications); it is called on the
// task's own goroutine.
func NewRunner(store *Store, log io.Writer, observe func(Record)) *Runner {
	return &Runner{store: store, log: log, observe: observe, jobs: map[string]*job{}}
}

// Store is the runner's store.
func (r *Runner) Store() *Store { return r.store }

// Start records a task that tool starts for action (a call already through
// the gates and validation of tool) and runs work for it. The record is
// durable before anything runs.
func (r *Runner) Start(tool, action string, work Work) (Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return Record{}, fault.Errorf(fault.CodeUnsupported, "the server is stopping and starts no more tasks; nothing was sent to SnowLuma").Unsent()
	}
	if len(r.jobs) >= MaxRunning {
		return Record{}, fault.Errorf(fault.CodeLimit,
			"%d background tasks are already running, the most at once; this one was not started or recorded, and nothing was sent to SnowLuma. Wait for one to end (poll tasks/get, or see list_tasks) and start it again, or run it now with invoke_action", MaxRunning).Unsent()
	}
	t, rec, err := r.store.newRun(tool, action)
	if err != nil {
		return Record{}, fault.Wrap(fault.CodeInternal, err,
			"the task could not be recorded durably in SNOWLUMA_MCP_TASK_DIR, so it was not started and nothing was sent to SnowLuma; free space or fix the directory's permissions and start it again").Unsent()
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{cancel: cancel, task: t}
	r.jobs[rec.ID] = j
	r.wg.Add(1)
	go r.watch(ctx, j)
	go r.work(ctx, work, j)
	return rec, nil
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
