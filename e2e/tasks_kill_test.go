package e2e

// SIGKILL during task writes (TASK-4, TASK-5): round after round, the
// binary starts tasks on one task directory and is killed at a different
// point each time (while it records new tasks, while tasks save their
// results, between the two), then restarted on the same directory. Every
// start must load the store cleanly; no task may be replayed or left
// working; every result a client saw completed must stay completed, byte
// for byte.

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestKilledDuringTaskWritesTheStoreLoadsAndLosesNothing(t *testing.T) {
	t.Parallel()
	const modes = 7
	const rounds = 3 * modes
	const perRound = 3
	env, _, dir := taskEnv(t)
	count := func(ext string) int {
		m, err := filepath.Glob(filepath.Join(dir, "tasks", "*."+ext))
		require.NoError(t, err)
		return len(m)
	}
	seen := map[string]json.RawMessage{} // completed results a client saw
	tags := map[string]string{}          // task id → its fake tag
	var ids []string
	for round := range rounds {
		r := startRaw(t, modern, env)
		require.Nil(t, r.request("tools/list", withMeta(map[string]any{}, tasksMeta())).Error, "the store loaded after the last kill")
		// Send the starts without waiting, so the kill lands among the
		// handles, the record writes and the result writes.
		sent := map[int]string{}
		for i := range perRound {
			tag := newTag(t)
			params := map[string]any{"file": fake.FileSeed, "chunk_size": 10000 + 1000*i, fake.Marker: "tag:" + tag}
			id := r.send("tools/call", withMeta(map[string]any{"name": "invoke_action_background",
				"arguments": map[string]any{"action": "download_file_stream", "params": params}}, tasksMeta()))
			sent[id] = tag
		}
		// Kill at a different point each round: right away, after one
		// handle, after every handle, once one task completed, once all
		// did, as soon as a new record reaches the disk (the others being
		// written), as soon as a new result does.
		mode := round % modes
		records, results := count("json"), count("result")
		switch mode {
		case 5:
			waitUntil(t, "a new record", func() bool { return count("json") > records })
		case 6:
			waitUntil(t, "a new result", func() bool { return count("result") > results })
		}
		handles := map[int]int{0: 0, 1: 1}[mode]
		if mode >= 2 && mode <= 4 {
			handles = perRound
		}
		var got []string
		for range handles {
			m := r.next()
			require.Nil(t, m.Error, "%s", m)
			h := decodeTask(t, m)
			var n int
			require.NoError(t, json.Unmarshal(m.ID, &n))
			tags[h.TaskID] = sent[n]
			ids = append(ids, h.TaskID)
			got = append(got, h.TaskID)
		}
		waitFor := map[int]int{3: 1, 4: perRound}[mode]
		for _, id := range got[:waitFor] {
			if w := awaitTask(t, r, id); w.Status == "completed" {
				seen[id] = w.Result
			}
		}
		r.kill()
	}

	final := startRaw(t, modern, env)
	for _, id := range ids {
		w := decodeTask(t, getTask(final, id))
		assert.Contains(t, []string{"completed", "failed"}, w.Status, "task %s is settled, not running again", id)
		if w.Status == "failed" {
			require.NotNil(t, w.Error)
			assert.Contains(t, w.Error.Message, "remote outcome unknown")
		}
		if before, ok := seen[id]; ok {
			assert.Equal(t, "completed", w.Status, "a result a client saw completed is kept")
			assert.JSONEq(t, string(before), string(w.Result))
		}
		assert.LessOrEqual(t, len(snow.ByTag(tags[id])), 1, "task %s ran at most once", id)
	}
	l, diag := listTasks(t, final, map[string]any{"limit": 100})
	assert.Equal(t, "success", diag.Outcome)
	assert.GreaterOrEqual(t, len(l.Tasks), len(ids), "every task whose handle went out is on disk")
	for _, task := range l.Tasks {
		assert.NotEqual(t, "working", task.Status, "nothing was replayed")
	}
	t.Logf("%d rounds, %d handles seen, %d tasks stored, %d results seen completed", rounds, len(ids), len(l.Tasks), len(seen))
}

// waitUntil polls cond as fast as it can, to catch a moment; the bound is
// a safety net, not an assertion.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(safety)
	for !cond() {
		require.True(t, time.Now().Before(deadline), "never happened: %s", what)
		time.Sleep(100 * time.Microsecond)
	}
}
