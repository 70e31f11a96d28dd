package e2e

// Several servers on one task directory (SESS-1): every host session
// starts its own server with the same write-mode configuration, and none
// is refused. Each task is run by the server that started it; every
// server reads every task from disk; a server killed mid-transfer has its
// task settled as a restart would (never replayed), while the others run
// on untouched.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestSeveralServersShareOneTaskDirectory(t *testing.T) {
	t.Parallel()
	for _, n := range []int{2, 5} {
		t.Run(fmt.Sprintf("%d servers", n), func(t *testing.T) {
			t.Parallel()
			env, dirs, dir := taskEnv(t)
			servers := make([]*rawServer, n)
			for i := range servers {
				servers[i] = startRaw(t, modern, env)
			}

			// The victim: a slow download on server 0, killed mid-way.
			victimTag := newTag(t)
			victim := decodeTask(t, startTask(servers[0], "download_file_stream",
				map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, victimTag, "slowframes:2000"))
			waitFor(t, "the victim's transfer under way", func() bool {
				return strings.Contains(decodeTask(t, getTask(servers[0], victim.TaskID)).StatusMessage, "transferred")
			})

			// Every server starts a transfer of its own, running while the
			// victim's server dies.
			tags := make([]string, n)
			ids := make([]string, n)
			for i, s := range servers {
				tags[i] = newTag(t)
				h := decodeTask(t, startTask(s, "download_file_stream",
					map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, tags[i], "slowframes:150"))
				require.Equal(t, "working", h.Status)
				ids[i] = h.TaskID
			}
			ownDone := awaitTask(t, servers[0], ids[0])
			require.Equal(t, "completed", ownDone.Status, "the victim's server finished its other task before it died")
			servers[0].kill()

			// A server starting now settles the dead server's task only.
			late := startRaw(t, modern, env)
			require.Nil(t, late.request("tools/list", withMeta(map[string]any{}, tasksMeta())).Error)
			late.awaitStderr("1 task(s) left unfinished", "exactly the dead server's unfinished task")

			results := map[string]json.RawMessage{ids[0]: ownDone.Result}
			for i := 1; i < n; i++ {
				w := awaitTask(t, servers[i], ids[i])
				assert.Equal(t, "completed", w.Status, "server %d's task ran on untouched: %+v", i, w)
				results[ids[i]] = w.Result
			}
			for i, tag := range tags {
				assert.Len(t, snow.ByTag(tag), 1, "task %d ran once", i)
			}
			assert.Len(t, snow.ByTag(victimTag), 1, "the victim's task was not run again")

			readers := append(append([]*rawServer{}, servers[1:]...), late)
			for _, r := range readers {
				lost := decodeTask(t, getTask(r, victim.TaskID))
				assert.Equal(t, "failed", lost.Status)
				require.NotNil(t, lost.Error)
				assert.Contains(t, lost.Error.Message, "remote outcome unknown")
				assert.Contains(t, lost.Error.Message, "never replayed")
				assert.Contains(t, lost.Error.Message, "partial download file has since been removed")
				for id, want := range results {
					got := decodeTask(t, getTask(r, id))
					assert.Equal(t, "completed", got.Status)
					assert.JSONEq(t, string(want), string(got.Result), "every server returns the stored result")
				}
				l, diag := listTasks(t, r, map[string]any{"limit": 100})
				assert.Equal(t, "success", diag.Outcome)
				assert.Len(t, l.Tasks, n+1, "every server lists every task")
			}
			assertNoPartial(t, dirs.download)
			owners, err := os.ReadDir(filepath.Join(dir, "owners"))
			require.NoError(t, err)
			assert.Len(t, owners, n, "one lock per live server: the dead one's was removed once its task was settled")
		})
	}
}

func TestAServerReadingADeadServersTaskSettlesIt(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	a, b := startRaw(t, modern, env), startRaw(t, modern, env)
	tag := newTag(t)
	h := decodeTask(t, startTask(a, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, tag, "slowframes:2000"))
	waitFor(t, "the download under way", func() bool { return partialWithData(t, dirs.download) })
	before := decodeTask(t, getTask(b, h.TaskID))
	assert.Equal(t, "working", before.Status, "another server's live task is shown as it is")
	a.kill()

	// Read through list_tasks first: that read settles it too.
	l, _ := listTasks(t, b, map[string]any{})
	require.Len(t, l.Tasks, 1)
	assert.Equal(t, "failed", l.Tasks[0].Status)
	w := decodeTask(t, getTask(b, h.TaskID))
	assert.Equal(t, "failed", w.Status)
	require.NotNil(t, w.Error)
	assert.Contains(t, w.Error.Message, "remote outcome unknown")
	assert.Contains(t, w.Error.Message, "partial download file has since been removed")
	assertNoPartial(t, dirs.download)
	assert.Len(t, snow.ByTag(tag), 1, "never replayed")
}

func TestACancelOnAnotherServerReachesTheServerThatRunsTheTask(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	owner, other := startRaw(t, modern, env), startRaw(t, modern, env)
	tag := newTag(t)
	h := decodeTask(t, startTask(owner, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, tag, "slowframes:2000"))
	waitFor(t, "the download under way", func() bool { return partialWithData(t, dirs.download) })

	// A listen on the other server leaves the task out: only the server
	// that runs it hears its changes.
	listenTasks(t, other, "listen-other", map[string]any{"taskIds": []string{h.TaskID}})
	ack := readNote(t, other.next())
	assert.Equal(t, "notifications/subscriptions/acknowledged", ack.Method)
	assert.JSONEq(t, `[]`, string(ack.Params.Notifications["taskIds"]), "a task another server runs is not announced here")

	m := other.request("tasks/cancel", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta()))
	require.Nil(t, m.Error, "%s", m)
	w := awaitTask(t, owner, h.TaskID)
	assert.Equal(t, "cancelled", w.Status)
	assert.Contains(t, w.StatusMessage, "cancelled on request")
	assert.Contains(t, w.StatusMessage, "its partial download file was removed")
	assert.Equal(t, "cancelled", decodeTask(t, getTask(other, h.TaskID)).Status)
	assertNoPartial(t, dirs.download)
	assert.Len(t, snow.ByTag(tag), 1)
}

// TestServersOfOtherModesNeverTouchTheTasks: a read or docs server given
// the same directory does not open it, so it never settles a task, even
// one whose server died.
func TestServersOfOtherModesNeverTouchTheTasks(t *testing.T) {
	t.Parallel()
	env, dirs, dir := taskEnv(t)
	a := startRaw(t, modern, env)
	h := decodeTask(t, startTask(a, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, newTag(t), "slowframes:2000"))
	waitFor(t, "the download under way", func() bool { return partialWithData(t, dirs.download) })
	a.kill()
	record := filepath.Join(dir, "tasks", h.TaskID+".json")
	before, err := os.ReadFile(record)
	require.NoError(t, err)
	for _, mode := range []string{"read", "docs"} {
		r := startRaw(t, modern, with(env, "SNOWLUMA_MCP_MODE", mode))
		require.Nil(t, r.request("tools/list", withMeta(map[string]any{}, tasksMeta())).Error)
		r.stdin.Close()
		require.Equal(t, 0, r.waitExit())
		after, err := os.ReadFile(record)
		require.NoError(t, err)
		assert.Equal(t, string(before), string(after), "a %s server leaves the task as it is", mode)
	}
	assert.True(t, partialWithData(t, dirs.download), "and its partial file")
	b := startRaw(t, modern, env)
	assert.Equal(t, "failed", decodeTask(t, getTask(b, h.TaskID)).Status, "a write server settles it")
}
