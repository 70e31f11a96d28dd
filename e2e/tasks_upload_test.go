package e2e

// Background uploads (the seed's example): upload_file_stream with
// execution.input_file inside the upload root runs as a task; cancelling
// it mid-upload resets the stream exactly as the synchronous path does.

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startUploadTask starts a background automatic upload of file.
func startUploadTask(r *rawServer, file string) rawMessage {
	r.t.Helper()
	return r.request("tools/call", withMeta(map[string]any{"name": "invoke_action_background",
		"arguments": map[string]any{"action": "upload_file_stream", "execution": map[string]any{"input_file": file}}}, tasksMeta()))
}

func TestABackgroundUploadSendsTheFile(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
	r := startRaw(t, modern, env)
	tag := newTag(t)
	data := randomBytes(t, 2500)
	file := writeFile(t, dirs.upload, "a[_fake=tag:"+tag+"].bin", data)
	h := decodeTask(t, startUploadTask(r, file))
	end := awaitTask(t, r, h.TaskID)
	require.Equal(t, "completed", end.Status, "%+v", end)
	var res struct {
		StructuredContent struct {
			Result struct {
				Upload struct {
					SHA256 string `json:"sha256"`
				} `json:"upload"`
			} `json:"result"`
			Diagnostics diagnostics `json:"diagnostics"`
		} `json:"structuredContent"`
	}
	require.NoError(t, json.Unmarshal(end.Result, &res))
	assert.Equal(t, "success", res.StructuredContent.Diagnostics.Outcome)
	assert.Equal(t, sha256Hex(data), res.StructuredContent.Result.Upload.SHA256)
	assert.Len(t, snow.ByTag(tag), 4, "three chunks and the completion, once each")
}

// TestCancellingABackgroundUploadResetsIt: the cancel lets the chunk in
// flight finish (SnowLuma completes a request whose body it has read), then
// resets the stream once, and the task's end says so in the user's words.
func TestCancellingABackgroundUploadResetsIt(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
	r := startRaw(t, modern, env)
	tag := newTag(t)
	file := writeFile(t, dirs.upload, "a[_fake=lagupload:2,tag:"+tag+"].bin", randomBytes(t, 10000))
	h := decodeTask(t, startUploadTask(r, file))
	waitFor(t, "the second chunk at SnowLuma", func() bool { return len(snow.ByTag(tag)) >= 2 })
	require.Nil(t, r.request("tasks/cancel", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta())).Error)
	end := awaitTask(t, r, h.TaskID)
	require.Equal(t, "cancelled", end.Status, "%+v", end)
	waitFor(t, "SnowLuma to finish every request", func() bool { return finished(tag) })
	id, reqs := uploadRequests(t, tag)
	require.Len(t, reqs, 3, "two chunks and one reset")
	assert.True(t, reqs[2].isReset(), "the reset is the last request")
	assert.False(t, snow.UploadOpen(id), "the reset came after the chunk in flight, so SnowLuma keeps no stream")
	assert.Contains(t, end.StatusMessage, "The upload stream "+id+" was reset and SnowLuma confirmed the reset, so it keeps none of the chunks it had received")
	assert.NotContains(t, end.StatusMessage, "context canceled", "said in the user's words")
}
