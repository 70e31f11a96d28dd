package e2e

// Background-task performance, measured never asserted (issue 11 item 7):
// the cost a task adds over a synchronous invoke_action of the same
// download, and tasks/get with 10,000 stored tasks.
//
//	go test -run '^$' -bench 'BackgroundDownload|TasksGet10k' -benchtime 200x ./e2e

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// BenchmarkBackgroundDownload runs the same 150 KiB download as a
// synchronous invoke_action and as a task polled to its end with tasks/get
// every millisecond (not the advised second, which would measure only the
// poll interval; the poll count per op is reported), on one binary over
// stdio.
func BenchmarkBackgroundDownload(b *testing.B) {
	env, _, _ := taskEnv(b)
	r := startRaw(b, modern, env)
	params := map[string]any{"file": fake.FileSeed}
	b.Run("sync", func(b *testing.B) {
		for b.Loop() {
			m := r.request("tools/call", withMeta(map[string]any{"name": "invoke_action",
				"arguments": map[string]any{"action": "download_file_stream", "params": params}}, tasksMeta()))
			_, diag := structured(b, m)
			require.Equal(b, "success", diag.Outcome)
		}
	})
	b.Run("task", func(b *testing.B) {
		polls := 0
		for b.Loop() {
			h := decodeTask(b, r.request("tools/call", withMeta(map[string]any{"name": "invoke_action_background",
				"arguments": map[string]any{"action": "download_file_stream", "params": params}}, tasksMeta())))
			for {
				polls++
				if w := decodeTask(b, getTask(r, h.TaskID)); w.Status != "working" {
					require.Equal(b, "completed", w.Status)
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
		b.ReportMetric(float64(polls)/float64(b.N), "polls/op")
	})
}

// BenchmarkTasksGet10k starts the binary on a directory holding 10,000
// completed tasks (reporting the start-up, which loads every record but
// no result body, as start-ms) and measures tasks/get of random ones.
func BenchmarkTasksGet10k(b *testing.B) {
	env, _, dir := taskEnv(b)
	// One real task gives the directory its scope and a real result body.
	r := startRaw(b, modern, env)
	h := decodeTask(b, r.request("tools/call", withMeta(map[string]any{"name": "invoke_action_background",
		"arguments": map[string]any{"action": "download_file_stream", "params": map[string]any{"file": fake.FileHello}}}, tasksMeta())))
	var w wireTask
	for w = decodeTask(b, getTask(r, h.TaskID)); w.Status == "working"; w = decodeTask(b, getTask(r, h.TaskID)) {
	}
	require.NoError(b, r.stdin.Close())
	require.Equal(b, 0, r.waitExit())
	body := []byte(w.Result)
	ids := fillTasks(b, filepath.Join(dir, "tasks"), body, 10_000)

	began := time.Now()
	r = startRaw(b, modern, env)
	require.Nil(b, r.request("tools/list", withMeta(map[string]any{}, tasksMeta())).Error)
	startMs := float64(time.Since(began).Microseconds()) / 1000
	i := 0
	for b.Loop() {
		w := decodeTask(b, getTask(r, ids[i%len(ids)]))
		require.Equal(b, "completed", w.Status)
		i++
	}
	b.ReportMetric(startMs, "start-ms")
}

// fillTasks writes n completed task records sharing one result body, as
// the store would have (0600 files), and returns their ids.
func fillTasks(b *testing.B, dir string, body []byte, n int) []string {
	b.Helper()
	sum := sha256.Sum256(body)
	at := time.Now().UTC().Add(-time.Hour)
	ids := make([]string, n)
	for i := range n {
		raw := make([]byte, 16)
		_, err := rand.Read(raw)
		require.NoError(b, err)
		id := hex.EncodeToString(raw)
		ids[i] = id
		ts := at.Add(time.Duration(i) * time.Millisecond)
		rec, err := json.Marshal(map[string]any{"v": 1, "taskId": id, "tool": "invoke_action_background", "action": "download_file_stream",
			"status": "completed", "statusMessage": "completed: outcome success", "createdAt": ts, "lastUpdatedAt": ts,
			"result": map[string]any{"size": len(body), "sha256": hex.EncodeToString(sum[:])}})
		require.NoError(b, err)
		require.NoError(b, os.WriteFile(filepath.Join(dir, id+".json"), rec, 0o600))
		require.NoError(b, os.WriteFile(filepath.Join(dir, id+".result"), body, 0o600))
	}
	return ids
}
