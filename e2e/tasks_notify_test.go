package e2e

// Task status notifications: a subscriptions/listen naming taskIds hears
// each task's state as tasks/get gives it, first at once and then at every
// change of status, on the listen's own subscriptionId.

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// taskNote is a notification as read from stdout.
type taskNote struct {
	Method string `json:"method"`
	Params struct {
		Meta map[string]any `json:"_meta"`
		wireTask
		Notifications map[string]json.RawMessage `json:"notifications"`
	} `json:"params"`
	raw json.RawMessage
}

// readNote decodes m as a notification.
func readNote(t *testing.T, m rawMessage) taskNote {
	t.Helper()
	require.NotEmpty(t, m.Method, "a notification, not a response: %s", m)
	var n taskNote
	require.NoError(t, json.Unmarshal(m.Line, &n), "%s", m)
	var whole struct {
		Params json.RawMessage `json:"params"`
	}
	require.NoError(t, json.Unmarshal(m.Line, &whole))
	n.raw = whole.Params
	return n
}

// listenTasks sends a listen with the given filter and id, declaring the
// tasks extension.
func listenTasks(t *testing.T, r *rawServer, id string, filter map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
		"params": withMeta(map[string]any{"notifications": filter}, tasksMeta())})
	require.NoError(t, err)
	r.writeLine(string(b))
}

// sameAsTasksGet asserts that a notification carries exactly what tasks/get
// answers for the task, less tasks/get's resultType.
func sameAsTasksGet(t *testing.T, r *rawServer, n taskNote) {
	t.Helper()
	got := map[string]json.RawMessage{}
	require.NoError(t, json.Unmarshal(n.raw, &got))
	delete(got, "_meta")
	assert.NotContains(t, got, "resultType", "a notification is not a result")
	want := map[string]json.RawMessage{}
	require.NoError(t, json.Unmarshal(getTask(r, n.Params.TaskID).Result, &want))
	delete(want, "_meta")
	delete(want, "resultType")
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	assert.JSONEq(t, string(w), string(g))
}

func TestAListenIsToldOfATaskFromNowUntilItEnds(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, newTag(t), "slowframes:60000"))

	listenTasks(t, r, "listen-1", map[string]any{"toolsListChanged": true, "taskIds": []string{h.TaskID, "no-such-task", h.TaskID}})
	ack := readNote(t, r.next())
	assert.Equal(t, "notifications/subscriptions/acknowledged", ack.Method, "the acknowledgement comes first")
	assert.Equal(t, "listen-1", ack.Params.Meta["io.modelcontextprotocol/subscriptionId"])
	assert.JSONEq(t, `[`+quoteJSON(h.TaskID)+`]`, string(ack.Params.Notifications["taskIds"]),
		"it echoes the tasks it honours: once each, and none this server does not have")
	assert.JSONEq(t, `true`, string(ack.Params.Notifications["toolsListChanged"]), "and keeps what the SDK honours")

	first := readNote(t, r.next())
	assert.Equal(t, "notifications/tasks", first.Method)
	assert.Equal(t, "listen-1", first.Params.Meta["io.modelcontextprotocol/subscriptionId"])
	assert.Equal(t, h.TaskID, first.Params.TaskID)
	assert.Equal(t, "working", first.Params.Status, "the task's state now, without waiting for a change")
	assert.JSONEq(t, "null", string(first.Params.TTLMs))

	// The listen stays open: the next answer is the cancel's, not the
	// listen's, and then the task's end arrives on the listen.
	cancel := r.send("tasks/cancel", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta()))
	var end taskNote
	for end.Params.Status == "" || end.Params.Status == "working" {
		m := r.next()
		if m.Method == "" {
			assert.Equal(t, quoteJSON(cancel), string(m.ID), "only the cancel is answered; the listen is still open: %s", m)
			continue
		}
		end = readNote(t, m)
		assert.Equal(t, "notifications/tasks", end.Method)
	}
	assert.Equal(t, "cancelled", end.Params.Status)
	assert.Equal(t, "listen-1", end.Params.Meta["io.modelcontextprotocol/subscriptionId"])
	sameAsTasksGet(t, r, end)

	// Cancelling the listen ends it without an answer (a cancelled
	// request is never answered), and nothing more is told on it.
	r.notify("notifications/cancelled", withMeta(map[string]any{"requestId": "listen-1"}, tasksMeta()))
	next := r.send("tasks/get", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta()))
	for {
		m := r.next()
		require.Empty(t, m.Method, "nothing more is told after the task ended: %s", m)
		require.NotEqual(t, `"listen-1"`, string(m.ID), "the cancelled listen was answered: %s", m)
		if string(m.ID) == quoteJSON(next) {
			break
		}
	}
	assertNeverAnswered(t, r, `"listen-1"`)
}

func TestAListenForAnEndedTaskIsToldItsResultAtOnce(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
	require.Equal(t, "completed", awaitTask(t, r, h.TaskID).Status)

	listenTasks(t, r, "done", map[string]any{"taskIds": []string{h.TaskID}})
	ack := readNote(t, r.next())
	require.Equal(t, "notifications/subscriptions/acknowledged", ack.Method)
	assert.JSONEq(t, `{"taskIds":[`+quoteJSON(h.TaskID)+`]}`, string(mustJSON(t, ack.Params.Notifications)))
	n := readNote(t, r.next())
	assert.Equal(t, "notifications/tasks", n.Method)
	assert.Equal(t, "completed", n.Params.Status)
	require.NotEmpty(t, n.Params.Result, "a completed task's notification carries its result")
	sameAsTasksGet(t, r, n)
}

func TestAListenThatRacesATaskHearsItsEnd(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello, "chunk_size": 4}, newTag(t), "slowframes:200"))
	listenTasks(t, r, "race", map[string]any{"taskIds": []string{h.TaskID}})
	require.Equal(t, "notifications/subscriptions/acknowledged", readNote(t, r.next()).Method)
	var seen []string
	for len(seen) == 0 || seen[len(seen)-1] == "working" {
		n := readNote(t, r.next())
		seen = append(seen, n.Params.Status)
		if n.Params.Status == "completed" {
			sameAsTasksGet(t, r, n)
		}
	}
	assert.Equal(t, "completed", seen[len(seen)-1], "%v", seen)
	assert.LessOrEqual(t, len(seen), 2, "each state once: %v", seen)
}

func TestTaskNotificationRefusals(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	for _, tc := range []struct {
		name   string
		meta   map[string]any
		filter map[string]any
		code   int
		says   string
	}{
		{"a client without the extension", modernMeta(modern), map[string]any{"taskIds": []string{"x"}}, -32021, "tasks extension"},
		{"taskIds that are not strings", tasksMeta(), map[string]any{"taskIds": []int{1}}, -32602, "array of task id strings"},
		{"taskIds that are not an array", tasksMeta(), map[string]any{"taskIds": "x"}, -32602, "array of task id strings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := r.request("subscriptions/listen", withMeta(map[string]any{"notifications": tc.filter}, tc.meta))
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, tc.code, m.Error.Code)
			assert.Contains(t, m.Error.Message, tc.says)
		})
	}
}

func TestAServerWithoutTasksLeavesTaskIdsUnhonoured(t *testing.T) {
	t.Parallel()
	env, _ := streamEnv(t)
	r := startRaw(t, modern, env)
	listenTasks(t, r, "plain", map[string]any{"taskIds": []string{"x"}})
	ack := readNote(t, r.next())
	require.Equal(t, "notifications/subscriptions/acknowledged", ack.Method)
	assert.NotContains(t, ack.Params.Notifications, "taskIds", "a server without tasks does not promise task notifications")
}

func quoteJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestOneListenHearsBothEventResourcesAndTasks(t *testing.T) {
	t.Parallel()
	sc := snow.Scene(fake.SceneOptions{})
	env, _, _ := taskEnv(t, "SNOWLUMA_MCP_EVENTS_URL", sc.URL())
	r := startRaw(t, modern, env)
	uri := rawSubscribe(t, r)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, newTag(t), "slowframes:60000"))

	listenTasks(t, r, "both", map[string]any{"resourceSubscriptions": []string{uri}, "taskIds": []string{h.TaskID}})
	ack := readNote(t, r.next())
	require.Equal(t, "notifications/subscriptions/acknowledged", ack.Method)
	assert.JSONEq(t, `{"resourceSubscriptions":[`+quoteJSON(uri)+`],"taskIds":[`+quoteJSON(h.TaskID)+`]}`,
		string(mustJSON(t, ack.Params.Notifications)))
	assert.Equal(t, "working", readNote(t, r.next()).Params.Status)

	sc.Push(fake.GroupMessage(self, 20001, 30001, "hello"))
	updated := readNote(t, r.next())
	assert.Equal(t, "notifications/resources/updated", updated.Method)
	assert.Equal(t, "both", updated.Params.Meta["io.modelcontextprotocol/subscriptionId"])

	r.send("tasks/cancel", withMeta(map[string]any{"taskId": h.TaskID}, tasksMeta()))
	for {
		m := r.next()
		if m.Method == "" {
			continue // the cancel's answer
		}
		n := readNote(t, m)
		require.Equal(t, "notifications/tasks", n.Method, "%s", m)
		assert.Equal(t, "both", n.Params.Meta["io.modelcontextprotocol/subscriptionId"])
		if n.Params.Status == "cancelled" {
			break
		}
	}
}
