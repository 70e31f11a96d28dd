package e2e

// A background task through the tasks extension's own client,
// @modelcontextprotocol/ext-tasks 0.2.2, over client 2.4.0 (tasks.mjs):
// the server advertises the extension to a client that declares it,
// invoke_action_background answers with a task, the client polls tasks/get
// and unwraps the completed result with resultFromTaskOutcome. A second
// case also opens a listen for the task with the extension's own filter
// helper and checks the status notifications it gets. Tasks exist only on 2026-07-28, which
// auto negotiates with this server and modern pins.

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// tasksReport is tasks.mjs's report.
type tasksReport struct {
	negotiatedReport
	TasksAdvertised map[string]any  `json:"tasksAdvertised"`
	Sent            []string        `json:"sent"`
	Kind            string          `json:"kind"`
	TaskID          string          `json:"taskId"`
	Statuses        []string        `json:"statuses"`
	Outcome         string          `json:"outcome"`
	Result          clientResult    `json:"result"`
	WireAck         json.RawMessage `json:"wireAck"`
	HonoredTaskIDs  []string        `json:"honoredTaskIds"`
	Notified        []struct {
		Status         string `json:"status"`
		TaskID         string `json:"taskId"`
		SubscriptionID string `json:"subscriptionId"`
	} `json:"notified"`
}

func TestInteropTasksClientListensForItsTask(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"auto", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			env, _, _ := taskEnv(t)
			_, tp := newTrace(t)
			var got tasksReport
			// Slow frames keep the task working while the listen opens.
			runClient(t, "tasks.mjs", era, env, map[string]any{"traceparent": tp, "listen": true, "params": map[string]any{
				"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:100"}}, &got)
			got.assertNegotiated(t, era)
			require.NotEmpty(t, got.TaskID)
			assert.Equal(t, []string{got.TaskID}, got.HonoredTaskIDs, "the acknowledgement echoes the task: %s", got.WireAck)
			require.NotEmpty(t, got.Notified, "notifications/tasks arrived")
			for _, n := range got.Notified {
				assert.Equal(t, got.TaskID, n.TaskID)
				assert.NotEmpty(t, n.SubscriptionID, "each carries its listen's subscriptionId")
			}
			assert.Equal(t, "completed", got.Notified[len(got.Notified)-1].Status, "the last one is the end: %+v", got.Notified)
			assert.Equal(t, "completed", got.Outcome)
			require.False(t, got.Result.IsError, "%+v", got.Result)
		})
	}
}

func TestInteropTasksClientRunsABackgroundDownload(t *testing.T) {
	t.Parallel()
	seed, ok := fake.StreamFileAt(fake.FileSeed)
	require.True(t, ok)
	for _, era := range []string{"auto", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			env, dirs, _ := taskEnv(t)
			traceID, tp := newTrace(t)
			var got tasksReport
			// Slow frames keep the task working for a few polls.
			runClient(t, "tasks.mjs", era, env, map[string]any{"traceparent": tp, "params": map[string]any{
				"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:40"}}, &got)
			got.assertNegotiated(t, era)

			assert.Equal(t, map[string]any{}, got.TasksAdvertised, "server/discover advertises the extension as {}")
			assert.Equal(t, "task", got.Kind, "invoke_action_background answered with a task")
			assert.NotEmpty(t, got.TaskID)
			require.NotEmpty(t, got.Sent)
			assert.Equal(t, "tools/call", got.Sent[0])
			assert.Contains(t, got.Sent, "tasks/get", "the client polled")
			assert.Equal(t, "completed", got.Outcome)
			require.NotEmpty(t, got.Statuses)
			assert.Equal(t, "completed", got.Statuses[len(got.Statuses)-1])

			require.False(t, got.Result.IsError, "%+v", got.Result)
			assert.Equal(t, "success", got.Result.StructuredContent.Diagnostics.Outcome)
			var saved savedResult
			got.Result.decode(t, &saved)
			assert.Equal(t, sha256Hex(seed.Data), saved.SavedFile.SHA256)
			onDisk, err := os.ReadFile(saved.SavedFile.Path)
			require.NoError(t, err)
			assert.Equal(t, seed.Data, onDisk, "the task saved SnowLuma's exact bytes")
			assert.Equal(t, []string{saved.SavedFile.FileName}, entries(t, dirs.download))
			sent := snow.ByTrace(traceID)
			require.Len(t, sent, 1, "one stream request, under the client's trace")
			assert.Equal(t, "download_file_stream", sent[0].Action)
		})
	}
}
