package e2e

// What a task leaves behind when its process dies or it is stopped
// (issue 20): the hidden partial file of a killed download is removed at
// the next start, a killed upload's stream is reset at the next start (a
// reset only: never a chunk or a completion again), each task's message
// says what became of its transfer, and a task waiting for a stream slot
// says that it waits and fails without sending anything. Tasks are a 2026-07-28 feature, so
// these run on that generation only.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// partials lists the partial files in dir.
func partials(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, n := range entries(t, dir) {
		if strings.HasPrefix(n, partialPrefix) {
			out = append(out, n)
		}
	}
	return out
}

func TestAKilledDownloadsPartialFileIsRemovedAtTheNextStart(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	first := startRaw(t, modern, env)
	tag := newTag(t)
	h := decodeTask(t, startTask(first, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, tag, "slowframes:2000"))
	waitFor(t, "the download under way", func() bool { return partialWithData(t, dirs.download) })
	first.kill()
	require.Len(t, partials(t, dirs.download), 1, "kill -9 leaves the hidden partial file")

	second := startRaw(t, modern, env)
	w := decodeTask(t, getTask(second, h.TaskID))
	assert.Equal(t, "failed", w.Status)
	require.NotNil(t, w.Error)
	assert.Contains(t, w.Error.Message, "remote outcome unknown")
	assert.Contains(t, w.Error.Message, "never replayed")
	assert.Contains(t, w.Error.Message, "Its partial download file has since been removed")
	assert.Empty(t, partials(t, dirs.download), "the start removed it")
	assert.Empty(t, entries(t, dirs.download))
	assert.Len(t, snow.ByTag(tag), 1, "nothing was run again")
}

// uploadRequests are the requests of the one upload stream carrying tag.
// finished reports whether SnowLuma has finished every request tagged
// tag, so what it keeps is final.
func finished(tag string) bool {
	for _, q := range snow.ByTag(tag) {
		if !q.Done {
			return false
		}
	}
	return true
}

func uploadRequests(t *testing.T, tag string) (id string, reqs []upParams) {
	t.Helper()
	for _, q := range snow.ByTag(tag) {
		p := paramsOf(t, q)
		if id == "" {
			id = p.StreamID
		}
		require.Equal(t, id, p.StreamID, "one stream")
		reqs = append(reqs, p)
	}
	return id, reqs
}

func TestAKilledUploadIsResetAtTheNextStartAndNeverReplayed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		faults string
		says   string
		open   bool
	}{
		{"SnowLuma confirms the reset", "slowupload:2", "reset of its upload stream %s has since been sent and SnowLuma confirmed it", false},
		{"the reset gets no answer", "slowupload:2,hangupload:3", "reset of its upload stream %s did not reach SnowLuma afterwards", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env, dirs, _ := taskEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
			first := startRaw(t, modern, env)
			tag := newTag(t)
			file := writeFile(t, dirs.upload, "a[_fake="+tt.faults+",tag:"+tag+"].bin", randomBytes(t, 5000))
			h := decodeTask(t, startUploadTask(first, file))
			waitFor(t, "the second chunk held at SnowLuma", func() bool { return len(snow.ByTag(tag)) >= 2 })
			first.kill()
			waitFor(t, "SnowLuma to notice the client left", func() bool {
				q := snow.ByTag(tag)
				return len(q) == 2 && q[1].Done
			})
			id, before := uploadRequests(t, tag)
			require.True(t, snow.UploadOpen(id), "SnowLuma holds the first chunk")

			second := startRaw(t, modern, env)
			w := decodeTask(t, getTask(second, h.TaskID))
			assert.Equal(t, "failed", w.Status)
			require.NotNil(t, w.Error)
			assert.Contains(t, w.Error.Message, "remote outcome unknown")
			assert.Contains(t, w.Error.Message, strings.ReplaceAll(tt.says, "%s", id))
			_, after := uploadRequests(t, tag)
			require.Len(t, after, len(before)+1, "exactly one request at the start")
			assert.True(t, after[len(before)].isReset(), "and it is a reset")
			for _, p := range after[len(before):] {
				assert.Nil(t, p.ChunkData, "no chunk is sent again")
				assert.Nil(t, p.IsComplete, "no completion is sent")
			}
			q := snow.ByTag(tag)
			assert.NotEmpty(t, q[len(q)-1].TraceID, "the reset carries a traceparent of its own")
			assert.Equal(t, tt.open, snow.UploadOpen(id))
			assert.NotContains(t, second.stderr.String(), token)
		})
	}
}

func TestATaskWaitingForAStreamSlotSaysSoAndFailsWithoutSending(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t, "SNOWLUMA_MCP_MAX_STREAMS", "1", "SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS", "3000")
	r := startRaw(t, modern, env)
	busy := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, newTag(t), "slowframes:2000"))
	waitFor(t, "the first task holding the slot", func() bool { return partialWithData(t, dirs.download) })
	tag := newTag(t)
	queued := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, tag, ""))
	waiting := "waiting for a free stream slot: all 1 are in use by other transfers, so nothing has been sent to SnowLuma yet"
	waitFor(t, "the second task to say it waits", func() bool {
		return decodeTask(t, getTask(r, queued.TaskID)).StatusMessage == waiting
	})
	m := r.request("tools/call", withMeta(map[string]any{"name": "list_tasks", "arguments": map[string]any{}}, tasksMeta()))
	res, _ := structured(t, m)
	var l struct {
		Tasks []struct {
			TaskID        string `json:"taskId"`
			Status        string `json:"status"`
			StatusMessage string `json:"statusMessage"`
		} `json:"tasks"`
	}
	require.NoError(t, json.Unmarshal(res, &l))
	found := false
	for _, e := range l.Tasks {
		if e.TaskID == queued.TaskID {
			found = true
			assert.Equal(t, "working", e.Status)
			assert.Equal(t, waiting, e.StatusMessage, "list_tasks says it waits too")
		}
	}
	assert.True(t, found)

	end := awaitTask(t, r, queued.TaskID)
	assert.Equal(t, "failed", end.Status, "a task that never got a slot did not complete: %+v", end)
	require.NotNil(t, end.Error)
	assert.Contains(t, end.Error.Message, "never got a stream slot")
	assert.Contains(t, end.Error.Message, "nothing was sent to SnowLuma")
	assert.Empty(t, end.Result)
	assert.Empty(t, snow.ByTag(tag), "nothing was sent")
	require.Nil(t, r.request("tasks/cancel", withMeta(map[string]any{"taskId": busy.TaskID}, tasksMeta())).Error)
	assert.Equal(t, "cancelled", awaitTask(t, r, busy.TaskID).Status)
	assert.Empty(t, partials(t, dirs.download))
}
