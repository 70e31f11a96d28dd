package task

// Several servers on one task directory (SESS-1). Each Store here stands
// for one server process: locks are per open file, so two stores in one
// test process exclude each other as two processes would. A server that
// dies is crash: its locks go, as the operating system drops them, and
// it writes nothing more.

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crash ends s as a killed process ends: no last write, locks released,
// its owner lock file left where it was.
func crash(t *testing.T, s *Store) {
	t.Helper()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	require.NoError(t, s.own.Close())
	require.NoError(t, s.shared.Close())
}

func openWith(t *testing.T, dir string, sw *Sweeper) (*Store, int) {
	t.Helper()
	s, n, err := Open(dir, testScope, nil, sw)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, n
}

func TestServersShareOneDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tasks")
	a, b := open(t, dir), open(t, dir)
	ra, err := a.Create("invoke_action_background", "download_file_stream")
	require.NoError(t, err)
	rb, err := b.Create("invoke_action_background", "upload_file_stream")
	require.NoError(t, err)

	seen, err := b.Get(ra.ID)
	require.NoError(t, err, "a task of another live server is read from disk")
	assert.Equal(t, Working, seen.Status, "and left to it")
	assert.False(t, b.Runs(seen))
	assert.True(t, a.Runs(ra))

	body := []byte(`{"resultType":"complete","content":[]}`)
	_, err = a.Complete(ra.ID, body, "completed")
	require.NoError(t, err)
	seen, err = b.Get(ra.ID)
	require.NoError(t, err)
	assert.Equal(t, Completed, seen.Status, "its end reaches the other server")
	got, err := b.Result(seen)
	require.NoError(t, err)
	assert.Equal(t, body, got)

	for _, s := range []*Store{a, b} {
		page, more, err := s.Page(nil, 10)
		require.NoError(t, err)
		assert.False(t, more)
		var ids []string
		for _, r := range page {
			ids = append(ids, r.ID)
		}
		assert.ElementsMatch(t, []string{ra.ID, rb.ID}, ids, "every server lists every task")
	}
	still, err := a.Get(rb.ID)
	require.NoError(t, err)
	assert.Equal(t, Working, still.Status, "nothing settles a task whose server lives")

	_, n := openWith(t, dir, nil)
	assert.Zero(t, n, "a third server starting settles nothing while both live")
}

func TestAGoneServersTasksAreSettledWhereverTheyAreRead(t *testing.T) {
	t.Parallel()
	reads := []struct {
		name string
		read func(t *testing.T, s *Store, id string) Record
	}{
		{"by tasks/get", func(t *testing.T, s *Store, id string) Record {
			r, err := s.Get(id)
			require.NoError(t, err)
			return r
		}},
		{"by list_tasks", func(t *testing.T, s *Store, id string) Record {
			page, _, err := s.Page(nil, 10)
			require.NoError(t, err)
			for _, r := range page {
				if r.ID == id {
					return r
				}
			}
			require.FailNow(t, "the task is not listed")
			return Record{}
		}},
		{"at a start", func(t *testing.T, s *Store, id string) Record {
			again, n := openWith(t, s.dir, s.sweep)
			assert.Equal(t, 1, n, "the start settles the gone server's task only")
			r, err := again.Get(id)
			require.NoError(t, err)
			return r
		}},
	}
	for _, rd := range reads {
		t.Run(rd.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "tasks")
			sw := &fakeSweeper{}
			dead := open(t, dir)
			live, _ := openWith(t, dir, sw.sweeper())
			lost, err := dead.Create("invoke_action_background", "download_file_stream")
			require.NoError(t, err)
			require.NoError(t, (&running{store: dead, id: lost.ID}).Partial(hostAbs("/dl/.snowluma-partial-9")))
			kept, err := live.Create("invoke_action_background", "download_file_stream")
			require.NoError(t, err)
			before, err := live.Get(lost.ID)
			require.NoError(t, err)
			require.Equal(t, Working, before.Status, "not settled while its server lives")
			crash(t, dead)

			got := rd.read(t, live, lost.ID)
			assert.Equal(t, Failed, got.Status)
			assert.Contains(t, got.StatusMessage, "remote outcome unknown")
			assert.Contains(t, got.StatusMessage, "never replayed")
			assert.Contains(t, got.StatusMessage, "partial download file has since been removed")
			assert.Equal(t, []string{hostAbs("/dl/.snowluma-partial-9")}, sw.removed, "cleaned up once")
			mine, err := live.Get(kept.ID)
			require.NoError(t, err)
			assert.Equal(t, Working, mine.Status, "the live server's own task is untouched")
			assert.NoFileExists(t, filepath.Join(dir, "owners", dead.owner), "the gone server's lock file is removed once its tasks are settled")
			assert.FileExists(t, filepath.Join(dir, "owners", live.owner))
		})
	}
}

func TestAGoneServersTaskIsSettledOnceWhenServersRaceForIt(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tasks")
	sw := &fakeSweeper{}
	dead := open(t, dir)
	var ids []string
	for range 3 {
		r, err := dead.Create("invoke_action_background", "upload_file_stream")
		require.NoError(t, err)
		require.NoError(t, (&running{store: dead, id: r.ID}).Stream("mcp_"+r.ID))
		ids = append(ids, r.ID)
	}
	var readers []*Store
	for range 4 {
		s, _ := openWith(t, dir, sw.sweeper())
		readers = append(readers, s)
	}
	crash(t, dead)
	var wg sync.WaitGroup
	for _, s := range readers {
		for _, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.Get(id)
				assert.NoError(t, err)
			}()
		}
	}
	wg.Wait()
	assert.Len(t, sw.resets, len(ids), "each stream is reset exactly once: %v", sw.resets)
	for _, s := range readers {
		for _, id := range ids {
			r, err := s.Get(id)
			require.NoError(t, err)
			assert.Equal(t, Failed, r.Status, "every server reads the settled task")
		}
	}
}

func TestACancelReachesTheServerThatRunsTheTask(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tasks")
	ended := make(chan Record, 1)
	owner := NewRunner(open(t, dir), &strings.Builder{}, func(r Record) { ended <- r })
	rec, err := startOf(owner, untilCancelled)
	require.NoError(t, err)

	other := NewRunner(open(t, dir), &strings.Builder{}, nil)
	got, err := other.Cancel(rec.ID)
	require.NoError(t, err)
	assert.Equal(t, Working, got.Status, "cancelling is cooperative: the answer comes before the end")
	h := &harness{runner: owner, ended: ended}
	end := h.end(t)
	assert.Equal(t, Cancelled, end.Status, "the server that runs it cancelled it, and told its own listeners")
	assert.Contains(t, end.StatusMessage, "cancelled on request")
	seen, err := other.Store().Get(rec.ID)
	require.NoError(t, err)
	assert.Equal(t, Cancelled, seen.Status)
	assert.NoFileExists(t, filepath.Join(dir, "cancel", rec.ID), "the request is removed with the task's end")

	// Cancelling an ended task leaves no request behind.
	_, err = other.Cancel(rec.ID)
	require.NoError(t, err)
	assert.NoFileExists(t, filepath.Join(dir, "cancel", rec.ID))
}

func TestUnfinishedWritesAreRemovedOnlyWhenTheirWriterIsGone(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tasks")
	live := open(t, dir)
	dead := open(t, dir)
	mine := filepath.Join(dir, "tasks", tempPrefix+live.owner+"-x.json-1")
	theirs := filepath.Join(dir, "tasks", tempPrefix+dead.owner+"-x.json-2")
	for _, p := range []string{mine, theirs} {
		require.NoError(t, os.WriteFile(p, []byte("{"), 0o600))
	}
	crash(t, dead)
	open(t, dir)
	assert.FileExists(t, mine, "a live server's write in progress is left to it")
	assert.NoFileExists(t, theirs)
}

func TestServersStartingOnANewDirectoryAgreeOnItsBinding(t *testing.T) {
	t.Parallel()
	for _, same := range []bool{true, false} {
		dir := filepath.Join(t.TempDir(), "tasks")
		scopes := []Scope{testScope, testScope, testScope, testScope}
		if !same {
			scopes[1].Token, scopes[3].Token = "other", "other"
		}
		errs := make([]error, len(scopes))
		var wg sync.WaitGroup
		for i, sc := range scopes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, _, err := Open(dir, sc, nil, nil)
				if err == nil {
					t.Cleanup(func() { _ = s.Close() })
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		refused := 0
		for _, err := range errs {
			if err != nil {
				assert.ErrorIs(t, err, ErrScope)
				refused++
			}
		}
		if same {
			assert.Zero(t, refused, "one configuration opens everywhere")
		} else {
			assert.Equal(t, 2, refused, "exactly the servers of the configuration that lost the race are refused")
		}
	}
}

func TestAServerThatClosesLeavesNoLockFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tasks")
	s := open(t, dir)
	require.FileExists(t, filepath.Join(dir, "owners", s.owner))
	require.NoError(t, s.Close())
	entries, err := os.ReadDir(filepath.Join(dir, "owners"))
	require.NoError(t, err)
	assert.Empty(t, entries)
	_, err = s.Create("invoke_action_background", "download_file_stream")
	assert.ErrorIs(t, err, errClosed, "a closed store writes nothing: another server may be settling its tasks")
}

func TestATaskAnEarlierVersionLeftWorkingIsSettled(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tasks")
	s := open(t, dir)
	r, err := s.Create("invoke_action_background", "download_file_stream")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	// As an earlier version wrote it: format 2, no owner.
	corrupt(t, dir, func(b []byte) []byte {
		require.Contains(t, string(b), `"v":3`)
		require.Contains(t, string(b), `,"owner":"`+s.owner+`"`)
		out := strings.Replace(string(b), `"v":3`, `"v":2`, 1)
		return []byte(strings.Replace(out, `,"owner":"`+s.owner+`"`, "", 1))
	})
	again, n := openWith(t, dir, nil)
	assert.Equal(t, 1, n)
	got, err := again.Get(r.ID)
	require.NoError(t, err)
	assert.Equal(t, Failed, got.Status)
	assert.Contains(t, got.StatusMessage, "remote outcome unknown")
}
