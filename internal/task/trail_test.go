package task

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slotRefused is what the envelope stage makes of a slot wait that ran out.
var slotRefused = fakeResult{failed: true, outcome: "failed", body: json.RawMessage(`{"isError":true}`),
	message: "all 2 stream slots stayed busy for 30s, so the transfer never started and nothing was sent to SnowLuma"}

func TestATaskWaitingForASlotSaysSoAndNeverReadsCompleted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		act    func(h *harness, id string)
		status Status
		says   []string
	}{
		{"a wait that runs out is a failure that says nothing was sent", nil, Failed,
			[]string{"never got a stream slot", "all 2 stream slots stayed busy", "nothing was sent to SnowLuma", "SNOWLUMA_MCP_MAX_STREAMS"}},
		{"a cancel while waiting says nothing was sent", func(h *harness, id string) {
			_, err := h.runner.Cancel(id)
			require.NoError(t, err)
		}, Cancelled, []string{"while waiting for a free stream slot", "nothing was sent to SnowLuma"}},
		{"a stop while waiting says nothing was sent", func(h *harness, _ string) {
			go h.runner.Stop(waitBound)
		}, Failed, []string{"server stopped while this task waited", "nothing was sent to SnowLuma"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			waiting, proceed := make(chan struct{}), make(chan struct{})
			h := newHarness(t, func(ctx context.Context, c Hooks) (Result, error) {
				c.Queued(true, 2)
				close(waiting)
				select {
				case <-proceed:
				case <-ctx.Done():
				}
				return slotRefused, nil
			})
			rec := h.start(t)
			<-waiting
			cur, err := h.runner.Store().Get(rec.ID)
			require.NoError(t, err)
			assert.Equal(t, Working, cur.Status)
			assert.Equal(t, "waiting for a free stream slot: all 2 are in use by other transfers, so nothing has been sent to SnowLuma yet", cur.StatusMessage)
			if tt.act != nil {
				tt.act(h, rec.ID)
			} else {
				close(proceed)
			}
			end := h.end(t)
			assert.Equal(t, tt.status, end.Status)
			for _, s := range tt.says {
				assert.Contains(t, end.StatusMessage, s)
			}
			if end.Status == Failed {
				assert.Equal(t, end.StatusMessage, end.Error.Message)
			}
		})
	}
}

func TestATaskThatGotItsSlotRunsAgain(t *testing.T) {
	t.Parallel()
	got, release := make(chan struct{}), make(chan struct{})
	h := newHarness(t, func(ctx context.Context, c Hooks) (Result, error) {
		c.Queued(true, 1)
		c.Queued(false, 1)
		close(got)
		<-release
		return success(`1`), nil
	})
	rec := h.start(t)
	<-got
	cur, err := h.runner.Store().Get(rec.ID)
	require.NoError(t, err)
	assert.Equal(t, "running", cur.StatusMessage)
	close(release)
	assert.Equal(t, Completed, h.end(t).Status, "a task that got its slot ends as its call does")
}

// onDisk reads a task's record as the next start would.
func onDisk(t *testing.T, s *Store, id string) *Record {
	t.Helper()
	data, err := os.ReadFile(s.path(id, "json"))
	require.NoError(t, err)
	r, err := DecodeRecord(id, data)
	require.NoError(t, err)
	return r
}

func TestACancelledTaskSaysWhatBecameOfTheTransfer(t *testing.T) {
	t.Parallel()
	refused := errors.New("connection refused")
	tests := []struct {
		name    string
		trail   func(t *testing.T, s *Store, id string, tr Trail)
		says    []string
		notSays []string
	}{
		{"a download whose partial file was removed", func(t *testing.T, s *Store, id string, tr Trail) {
			require.NoError(t, tr.Partial(hostAbs("/downloads/.snowluma-partial-1")))
			assert.Equal(t, hostAbs("/downloads/.snowluma-partial-1"), onDisk(t, s, id).PartialFile, "recorded durably before the file exists")
			tr.Removed(hostAbs("/downloads/.snowluma-partial-1"), nil)
		}, []string{"partial download file was removed"}, nil},
		{"a download whose partial file stayed", func(t *testing.T, _ *Store, _ string, tr Trail) {
			require.NoError(t, tr.Partial(hostAbs("/downloads/.snowluma-partial-1")))
			tr.Removed(hostAbs("/downloads/.snowluma-partial-1"), errors.New("permission denied"))
		}, []string{hostAbs("/downloads/.snowluma-partial-1") + " could not be removed (permission denied)", "delete it yourself"}, nil},
		{"an upload whose reset reached SnowLuma", func(t *testing.T, s *Store, id string, tr Trail) {
			require.NoError(t, tr.Stream("mcp_abc"))
			assert.Equal(t, "mcp_abc", onDisk(t, s, id).UploadStream, "recorded durably before the first chunk")
			tr.Reset("mcp_abc", nil)
		}, []string{"upload stream mcp_abc was reset", "SnowLuma confirmed the reset", "keeps none of the chunks"}, []string{"did not reach"}},
		{"an upload whose reset did not", func(t *testing.T, _ *Store, _ string, tr Trail) {
			require.NoError(t, tr.Stream("mcp_abc"))
			tr.Reset("mcp_abc", refused)
		}, []string{"reset of upload stream mcp_abc did not reach SnowLuma (connection refused)", "idle for 10 minutes"}, nil},
		{"an upload stopped before its first chunk arrived", func(t *testing.T, _ *Store, _ string, tr Trail) {
			require.NoError(t, tr.Stream("mcp_abc"))
		}, []string{"SnowLuma had received nothing of the upload"}, nil},
		{"a transfer that had begun nothing", func(*testing.T, *Store, string, Trail) {}, []string{"left nothing behind"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var h *harness
			ready := make(chan struct{})
			h = newHarness(t, func(ctx context.Context, c Hooks) (Result, error) {
				page, _, err := h.runner.Store().Page(nil, 1)
				require.NoError(t, err)
				tt.trail(t, h.runner.Store(), page[0].ID, c.Trail)
				close(ready)
				return untilCancelled(ctx, c)
			})
			rec := h.start(t)
			<-ready
			_, err := h.runner.Cancel(rec.ID)
			require.NoError(t, err)
			end := h.end(t)
			assert.Equal(t, Cancelled, end.Status)
			assert.Contains(t, end.StatusMessage, "cancelled on request")
			for _, s := range tt.says {
				assert.Contains(t, end.StatusMessage, s)
			}
			for _, s := range tt.notSays {
				assert.NotContains(t, end.StatusMessage, s)
			}
			assert.NotContains(t, end.StatusMessage, "context canceled", "no Go error text")
			assert.NotContains(t, end.StatusMessage, "the call was cancelled", "the envelope's words are not repeated")
		})
	}
}

// fakeSweeper records the cleanups asked of it.
type fakeSweeper struct {
	mu              sync.Mutex
	removed, resets []string
	removeErr       error
	resetErr        error
}

func (f *fakeSweeper) sweeper() *Sweeper {
	return &Sweeper{
		RemovePartial: func(p string) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.removed = append(f.removed, p)
			return f.removeErr
		},
		ResetUpload: func(id string) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.resets = append(f.resets, id)
			return f.resetErr
		},
	}
}

func TestAStartCleansUpWhatUnfinishedTasksLeftBehind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		partial   string
		stream    string
		sweep     *fakeSweeper
		nilSweep  bool
		says      []string
		removed   []string
		resets    []string
		saveFirst bool // the result was saved before the process died
	}{
		{"a partial download is removed", hostAbs("/dl/.snowluma-partial-1"), "", &fakeSweeper{}, false,
			[]string{"remote outcome unknown", "never replayed", "partial download file has since been removed"}, []string{hostAbs("/dl/.snowluma-partial-1")}, nil, false},
		{"a partial download already gone", hostAbs("/dl/.snowluma-partial-1"), "", &fakeSweeper{removeErr: os.ErrNotExist}, false,
			[]string{"already gone"}, []string{hostAbs("/dl/.snowluma-partial-1")}, nil, false},
		{"a partial download that cannot be removed", hostAbs("/dl/.snowluma-partial-1"), "", &fakeSweeper{removeErr: errors.New("permission denied")}, false,
			[]string{hostAbs("/dl/.snowluma-partial-1") + " could not be removed afterwards (permission denied)", "delete it yourself"}, []string{hostAbs("/dl/.snowluma-partial-1")}, nil, false},
		{"an upload is reset", "", "mcp_abc", &fakeSweeper{}, false,
			[]string{"reset of its upload stream mcp_abc has since been sent and SnowLuma confirmed it", "keeps none of the chunks it had received", "already completed is not removed"}, nil, []string{"mcp_abc"}, false},
		{"an upload whose reset fails", "", "mcp_abc", &fakeSweeper{resetErr: errors.New("connection refused")}, false,
			[]string{"reset of its upload stream mcp_abc did not reach SnowLuma afterwards (connection refused)", "idle for 10 minutes"}, nil, []string{"mcp_abc"}, false},
		{"without a sweeper the leftovers are named", hostAbs("/dl/.snowluma-partial-1"), "mcp_abc", &fakeSweeper{}, true,
			[]string{hostAbs("/dl/.snowluma-partial-1") + " could not be removed", "mcp_abc did not reach SnowLuma"}, nil, nil, false},
		{"a task whose result was saved is not cleaned up", hostAbs("/dl/.snowluma-partial-1"), "mcp_abc", &fakeSweeper{}, false,
			[]string{"completed"}, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "tasks")
			s := open(t, dir)
			r, err := s.Create("invoke_action_background", "upload_file_stream")
			require.NoError(t, err)
			tr := &running{store: s, id: r.ID}
			if tt.partial != "" {
				require.NoError(t, tr.Partial(tt.partial))
			}
			if tt.stream != "" {
				require.NoError(t, tr.Stream(tt.stream))
			}
			if tt.saveFirst {
				require.NoError(t, writeAtomicAs(s.tasks, "", r.ID+".result", []byte(`{"resultType":"complete"}`)))
			}
			require.NoError(t, s.Close()) // as if killed: the record still says working
			sw := tt.sweep.sweeper()
			if tt.nilSweep {
				sw = nil
			}
			again, recovered, err := Open(dir, testScope, nil, sw)
			require.NoError(t, err)
			defer again.Close()
			assert.Equal(t, 1, recovered)
			got, err := again.Get(r.ID)
			require.NoError(t, err)
			for _, w := range tt.says {
				assert.Contains(t, got.StatusMessage, w)
			}
			if got.Status == Failed {
				assert.Equal(t, got.StatusMessage, got.Error.Message)
				assert.NotContains(t, got.StatusMessage, "may remain", "the generic guess gives way to what was done")
			}
			assert.Equal(t, tt.removed, tt.sweep.removed)
			assert.Equal(t, tt.resets, tt.sweep.resets)
			assert.Equal(t, got, *onDisk(t, again, r.ID), "the settled record is what is stored")
		})
	}
}

func TestRecordsOfTheFirstFormatStillLoad(t *testing.T) {
	t.Parallel()
	v1 := `{"v":1,"taskId":"0123456789abcdef0123456789abcdef","tool":"invoke_action_background","action":"download_file_stream","status":"failed","statusMessage":"x","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","error":{"code":-32603,"message":"x"}}`
	_, err := DecodeRecord("0123456789abcdef0123456789abcdef", []byte(v1))
	require.NoError(t, err)
	for name, bad := range map[string]string{
		"leftovers in the first format": `{"v":1,"taskId":"0123456789abcdef0123456789abcdef","tool":"t","action":"a","status":"working","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","partialFile":"/x"}`,
		"a relative partial file":       `{"v":2,"taskId":"0123456789abcdef0123456789abcdef","tool":"t","action":"a","status":"working","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","partialFile":"x"}`,
		"a malformed stream id":         `{"v":2,"taskId":"0123456789abcdef0123456789abcdef","tool":"t","action":"a","status":"working","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","uploadStream":"../x"}`,
		"an owner in the second format": `{"v":2,"taskId":"0123456789abcdef0123456789abcdef","tool":"t","action":"a","status":"working","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","owner":"0123456789abcdef0123456789abcdef"}`,
		"a malformed owner":             `{"v":3,"taskId":"0123456789abcdef0123456789abcdef","tool":"t","action":"a","status":"working","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","owner":"../x"}`,
		"a future format":               `{"v":4,"taskId":"0123456789abcdef0123456789abcdef","tool":"t","action":"a","status":"working","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z"}`,
	} {
		_, err := DecodeRecord("0123456789abcdef0123456789abcdef", []byte(bad))
		assert.ErrorIs(t, err, ErrCorrupt, name)
	}
}

// hostAbs spells a Unix-style absolute path as an absolute path of this
// platform: a record refuses a partial file that is not absolute, and on
// Windows an absolute path needs a drive.
func hostAbs(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return p
}
