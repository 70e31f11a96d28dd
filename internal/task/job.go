package task

// A started task as its runner holds it: the cancel of its own context,
// whether that cancel came on request, and its record; and the two
// goroutines that run it to its end and watch for a cancel request that
// another server leaves for it. How the run ends is its record's to write
// (conclude); the runner only says how it ended.

import (
	"context"
	"fmt"
	"time"
)

// job is one task this runner runs.
type job struct {
	cancel    context.CancelFunc
	cancelled bool
	task      *running
}

// work runs the task's work and has its record end as the run did.
func (r *Runner) work(ctx context.Context, work Work, j *job) {
	defer r.wg.Done()
	res, err := work(ctx, j.task.hooks())
	r.mu.Lock()
	delete(r.jobs, j.task.id)
	e := ending{res: res, err: err, cancelled: j.cancelled, stopping: r.stopping}
	r.mu.Unlock()
	j.cancel()
	rec, err := j.task.conclude(e)
	if err != nil {
		fmt.Fprintf(r.log, "snowluma-mcp task=%s could not record how it ended: %v\n", j.task.id, err)
	}
	if r.observe != nil {
		r.observe(rec)
	}
}

// cancelPoll is how often a running task looks for a cancel request that
// another server left in the directory.
const cancelPoll = 200 * time.Millisecond

// watch cancels j, as tasks/cancel here would, once another server
// leaves a cancel request for it; it ends with the task.
func (r *Runner) watch(ctx context.Context, j *job) {
	t := time.NewTicker(cancelPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if j.task.cancelAsked() {
				r.cancelJob(j)
				return
			}
		}
	}
}

// cancelJob cancels a job of this runner.
func (r *Runner) cancelJob(j *job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j.cancelled = true
	j.cancel()
}
