package task

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// waitBound is a safety net for a hung test, never an assertion.
const waitBound = 30 * time.Second

// harness is a runner whose task chain does what each test says.
type harness struct {
	runner *Runner
	run    Work
	ended  chan Record
}

func newHarness(t *testing.T, run Work) *harness {
	t.Helper()
	s := open(t, filepath.Join(t.TempDir(), "tasks"))
	h := &harness{run: run, ended: make(chan Record, 16)}
	h.runner = NewRunner(s, &strings.Builder{}, func(r Record) { h.ended <- r })
	return h
}

func (h *harness) start(t *testing.T) Record {
	t.Helper()
	rec, err := startOf(h.runner, h.run)
	require.NoError(t, err)
	return rec
}

func (h *harness) end(t *testing.T) Record {
	t.Helper()
	select {
	case r := <-h.ended:
		return r
	case <-time.After(waitBound):
		require.FailNow(t, "the task never ended")
		return Record{}
	}
}

func success(payload string) Result {
	// The body has the shape a rendered tool result has, which a restart
	// reads the summary back from (summaryOf).
	return fakeResult{outcome: "success", body: json.RawMessage(`{"structuredContent":{"data":` + payload + `,"diagnostics":{"outcome":"success"}}}`)}
}

// untilCancelled blocks until the task's context ends, then reports a
// cancelled call as the envelope stage would.
func untilCancelled(ctx context.Context, _ Hooks) (Result, error) {
	<-ctx.Done()
	return fakeResult{failed: true, outcome: "unknown", message: "the call was cancelled", body: json.RawMessage(`{"isError":true}`)}, nil
}

func TestRunnerRecordsHowTasksEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		run    Work
		act    func(h *harness, id string)
		status Status
		says   string
	}{
		{"a finished call is completed with its rendered result", func(context.Context, Hooks) (Result, error) {
			return success(`{"saved_file":{"size":1}}`), nil
		}, nil, Completed, "completed: outcome success"},
		{"a tool error is still a completed task", func(context.Context, Hooks) (Result, error) {
			return fakeResult{failed: true, outcome: "failed", body: json.RawMessage(`{"isError":true}`)}, nil
		}, nil, Completed, "completed with a tool error"},
		{"a cancelled call is cancelled", untilCancelled, func(h *harness, id string) {
			_, err := h.runner.Cancel(id)
			require.NoError(t, err)
		}, Cancelled, "cancelled on request"},
		{"a completion in flight wins over a cancel", func(ctx context.Context, _ Hooks) (Result, error) {
			<-ctx.Done()
			return success(`1`), nil
		}, func(h *harness, id string) {
			_, err := h.runner.Cancel(id)
			require.NoError(t, err)
		}, Completed, "completed"},
		{"a stop fails the task with the remote outcome unknown", untilCancelled, func(h *harness, _ string) {
			go h.runner.Stop(waitBound)
		}, Failed, "The remote outcome is unknown"},
		{"a result over the record limit is a failure that says so", func(context.Context, Hooks) (Result, error) {
			return success(`"` + strings.Repeat("x", MaxRecord) + `"`), nil
		}, nil, Failed, "limit on a stored task record"},
		{"a chain without a result is a failure", func(context.Context, Hooks) (Result, error) {
			return nil, nil
		}, nil, Failed, "SnowLuma may have acted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.run)
			rec := h.start(t)
			assert.Equal(t, Working, rec.Status)
			if tt.act != nil {
				tt.act(h, rec.ID)
			}
			end := h.end(t)
			assert.Equal(t, tt.status, end.Status)
			assert.Contains(t, end.StatusMessage, tt.says)
			stored, err := h.runner.Store().Get(rec.ID)
			require.NoError(t, err)
			assert.Equal(t, end, stored)
			if end.Status == Completed {
				body, err := h.runner.Store().Result(end)
				require.NoError(t, err)
				assert.True(t, strings.HasPrefix(string(body), `{"resultType":"complete",`), "%.80s", body)
			}
		})
	}
}

func TestRunnerRefusesAFifthTaskWithoutRecordingIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, untilCancelled)
	for range MaxRunning {
		h.start(t)
	}
	_, err := startOf(h.runner, h.run)
	require.Error(t, err)
	assert.Equal(t, fault.CodeLimit, fault.CodeOf(err))
	assert.True(t, fault.NothingSent(err))
	assert.Contains(t, err.Error(), "start it again")
	page, _, err := h.runner.Store().Page(nil, 10)
	require.NoError(t, err)
	assert.Len(t, page, MaxRunning)
	h.runner.Stop(waitBound)
	for range MaxRunning {
		assert.Equal(t, Failed, h.end(t).Status)
	}
	_, err = startOf(h.runner, h.run)
	require.Error(t, err, "a stopped runner starts nothing")
}

func TestRunnerProgressReachesTheRecord(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	reported := make(chan struct{})
	h := newHarness(t, func(ctx context.Context, c Hooks) (Result, error) {
		require.NoError(t, c.Progress(ctx, 10, 40))
		close(reported)
		<-release
		return success(`1`), nil
	})
	rec := h.start(t)
	<-reported
	cur, err := h.runner.Store().Get(rec.ID)
	require.NoError(t, err)
	assert.Equal(t, "running: 10 of 40 transferred", cur.StatusMessage)
	close(release)
	assert.Equal(t, Completed, h.end(t).Status)
}

func TestRunnerWriteFailuresAreReportedNeverSwallowed(t *testing.T) {
	t.Parallel()
	t.Run("a task that cannot be recorded is not started", func(t *testing.T) {
		t.Parallel()
		ran := false
		h := newHarness(t, func(context.Context, Hooks) (Result, error) { ran = true; return success(`1`), nil })
		// A file where the tasks directory was makes every write fail.
		tasks := h.runner.Store().tasks
		require.NoError(t, os.RemoveAll(tasks))
		require.NoError(t, os.WriteFile(tasks, nil, 0o600))
		_, err := startOf(h.runner, h.run)
		require.Error(t, err)
		assert.True(t, fault.NothingSent(err))
		assert.Contains(t, err.Error(), "could not be recorded durably")
		assert.Contains(t, err.Error(), "nothing was sent to SnowLuma")
		assert.False(t, ran)
	})
	t.Run("a result that cannot be saved fails the task saying SnowLuma may have acted", func(t *testing.T) {
		t.Parallel()
		var h *harness
		h = newHarness(t, func(context.Context, Hooks) (Result, error) {
			// The result file's place is taken, so saving it fails.
			page, _, err := h.runner.Store().Page(nil, 1)
			require.NoError(t, err)
			require.NoError(t, os.Mkdir(h.runner.Store().path(page[0].ID, "result"), 0o700))
			return success(`1`), nil
		})
		h.start(t)
		end := h.end(t)
		assert.Equal(t, Failed, end.Status)
		assert.Contains(t, end.StatusMessage, "could not be saved")
		assert.Contains(t, end.StatusMessage, "SnowLuma may have acted")
	})
}

// TestATasksEndIsTheSameLiveAndAfterARestart is the disk that fills up
// between the saved result and the final record: the result is the commit
// point, so the task reads completed now, and the restart, which recovers
// it from that result, says exactly the same.
func TestATasksEndIsTheSameLiveAndAfterARestart(t *testing.T) {
	t.Parallel()
	var h *harness
	var working []byte
	h = newHarness(t, func(context.Context, Hooks) (Result, error) {
		// A directory where the record goes makes its final write fail,
		// while the result beside it is written normally.
		page, _, err := h.runner.Store().Page(nil, 1)
		require.NoError(t, err)
		p := h.runner.Store().path(page[0].ID, "json")
		working, err = os.ReadFile(p)
		require.NoError(t, err)
		require.NoError(t, os.Remove(p))
		require.NoError(t, os.Mkdir(p, 0o700))
		return success(`{"saved_file":{"size":1}}`), nil
	})
	rec := h.start(t)
	live := h.end(t)
	assert.Equal(t, Completed, live.Status, "the saved result decides: %s", live.StatusMessage)
	assert.Equal(t, "completed: outcome success", live.StatusMessage)
	liveBody, err := h.runner.Store().Result(live)
	require.NoError(t, err)
	got, err := h.runner.Store().Get(rec.ID)
	require.NoError(t, err)
	assert.Equal(t, live, got, "tasks/get says what the runner announced")

	// On disk: the saved result and the record as it was while working.
	s := h.runner.Store()
	require.NoError(t, os.Remove(s.path(rec.ID, "json")))
	// Written as the store writes (private on every platform).
	require.NoError(t, writeAtomicAs(filepath.Dir(s.path(rec.ID, "json")), "", filepath.Base(s.path(rec.ID, "json")), working))
	require.NoError(t, s.Close())
	again, recovered, err := Open(s.dir, testScope, nil, nil)
	require.NoError(t, err)
	defer again.Close()
	assert.Equal(t, 1, recovered)
	after, err := again.Get(rec.ID)
	require.NoError(t, err)
	assert.Equal(t, live.Status, after.Status)
	assert.Equal(t, live.StatusMessage, after.StatusMessage)
	assert.Equal(t, live.Result, after.Result)
	afterBody, err := again.Result(after)
	require.NoError(t, err)
	assert.Equal(t, liveBody, afterBody)
}
