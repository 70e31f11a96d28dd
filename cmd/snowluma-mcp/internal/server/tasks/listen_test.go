package tasks

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// taskStore is an empty task store in a fresh directory.
func taskStore(t *testing.T) (*task.Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tasks")
	store, _, err := task.Open(dir, task.Scope{Mode: "write", Endpoint: "http://127.0.0.1:1/"}, nil, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	return store, dir
}

// heard is a listen that records the notifications/tasks it is sent.
type heard struct {
	id   string
	mu   sync.Mutex
	got  []map[string]any
	fail bool
}

func (h *heard) SubscriptionID() any { return h.id }

func (h *heard) Notify(method string, params any) error {
	if method != "notifications/tasks" {
		return errors.New("unexpected " + method)
	}
	if h.fail {
		return errors.New("the client stopped reading")
	}
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, m)
	return nil
}

// statuses are the task statuses h heard, in order.
func (h *heard) statuses() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, m := range h.got {
		out = append(out, m["taskId"].(string)+" "+m["status"].(string))
	}
	return out
}

// listenRequest is a modern listen whose _meta declares the tasks
// extension (or not) and holds the taskIds the Wire carried in.
func listenRequest(declares bool, taskIDs any) *mcp.ServerRequest[*mcp.SubscriptionsListenParams] {
	caps := map[string]any{}
	if declares {
		caps["extensions"] = map[string]any{generation.TasksExtension: map[string]any{}}
	}
	meta := mcp.Meta{generation.ProtocolVersionKey: generation.ModernVersion, generation.ClientCapabilitiesKey: caps}
	if taskIDs != nil {
		meta[ListenIDsKey] = taskIDs
	}
	return &mcp.ServerRequest[*mcp.SubscriptionsListenParams]{Params: &mcp.SubscriptionsListenParams{Meta: meta}}
}

func TestAdmitReadsTheTaskIDsTheWireCarried(t *testing.T) {
	t.Parallel()
	store, _ := taskStore(t)
	a, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	tests := []struct {
		name    string
		tasks   bool // the server serves task status
		req     mcp.Request
		hold    bool
		ids     []string // what the listen is told about; nil for no task watch
		code    int64    // the refusal's code; 0 for none
		keyGone bool
	}{
		{"a listen without taskIds is no task listen", true, listenRequest(true, nil), false, nil, 0, true},
		{"known ids are kept once, unknown ones left out", true, listenRequest(true, []any{a.ID, "nope", a.ID}), true, []string{a.ID}, 0, true},
		{"only unknown ids: acknowledged, not held", true, listenRequest(true, []any{"nope"}), false, []string{}, 0, true},
		{"taskIds without the declaration are refused", true, listenRequest(false, []any{a.ID}), false, nil, CodeMissingCapability, true},
		{"taskIds that are not strings are refused", true, listenRequest(true, []any{1, 2}), false, nil, jsonrpc.CodeInvalidParams, true},
		{"without task status the key is dropped and nothing asked", false, listenRequest(true, []any{a.ID}), false, nil, 0, true},
		{"another request is left alone", true, &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}}, false, nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var side *Listens
			if tt.tasks {
				side = NewListens(store)
			}
			l := &heard{id: "L"}
			hold, err := side.Admit(l, tt.req)
			if tt.code != 0 {
				var je *jsonrpc.Error
				require.ErrorAs(t, err, &je)
				assert.Equal(t, tt.code, je.Code)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.hold, hold)
			if tt.keyGone {
				assert.NotContains(t, tt.req.GetParams().GetMeta(), ListenIDsKey, "the process's own key never reaches the SDK")
			}
			w := side.watchOf(l)
			if tt.ids == nil {
				assert.Nil(t, w)
				return
			}
			require.NotNil(t, w)
			assert.Equal(t, tt.ids, w.ids)
		})
	}
}

func TestTheAcknowledgementEchoesTheTaskIDsHonoured(t *testing.T) {
	t.Parallel()
	store, _ := taskStore(t)
	a, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	side := NewListens(store)
	p := &mcp.SubscriptionsAcknowledgedParams{Meta: mcp.Meta{mcp.MetaKeySubscriptionID: "L"},
		Notifications: mcp.NotificationSubscriptions{ResourcesListChanged: true}}

	plain := &heard{id: "P"}
	_, asked, err := side.Acknowledgement(plain, p)
	require.NoError(t, err)
	assert.False(t, asked, "a listen without taskIds gets the SDK's acknowledgement")

	l := &heard{id: "L"}
	_, err = side.Admit(l, listenRequest(true, []any{a.ID, "nope"}))
	require.NoError(t, err)
	ack, asked, err := side.Acknowledgement(l, p)
	require.NoError(t, err)
	require.True(t, asked)
	b, err := json.Marshal(ack)
	require.NoError(t, err)
	assert.JSONEq(t, `{"_meta":{"`+mcp.MetaKeySubscriptionID+`":"L"},"notifications":{"resourcesListChanged":true,"taskIds":["`+a.ID+`"]}}`, string(b))
}

func TestAListenHearsEachStateOnceFromItsAcknowledgementOn(t *testing.T) {
	t.Parallel()
	store, _ := taskStore(t)
	a, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	b, err := store.Create("invoke_action_background", "upload_file")
	require.NoError(t, err)
	side := NewListens(store)
	l := &heard{id: "L"}
	_, err = side.Admit(l, listenRequest(true, []any{a.ID, b.ID}))
	require.NoError(t, err)

	side.changed(a.ID)
	assert.Empty(t, l.statuses(), "nothing before the acknowledgement")
	side.Acknowledged(l)
	assert.Equal(t, []string{a.ID + " working", b.ID + " working"}, l.statuses(), "each state right after the acknowledgement")
	side.changed(a.ID)
	assert.Len(t, l.statuses(), 2, "a state already told is not told again")

	_, err = store.Complete(a.ID, []byte(`{"content":[]}`), "done")
	require.NoError(t, err)
	side.changed(a.ID)
	assert.Equal(t, []string{a.ID + " working", b.ID + " working", a.ID + " completed"}, l.statuses())
	l.mu.Lock()
	last := l.got[2]
	l.mu.Unlock()
	assert.Equal(t, "L", last["_meta"].(map[string]any)[mcp.MetaKeySubscriptionID], "each carries the listen's subscriptionId")
	assert.Equal(t, map[string]any{"content": []any{}}, last["result"], "and the task's whole state, as tasks/get gives it")
	assert.NotContains(t, last, "resultType", "a notification has no resultType")

	side.Forget(l)
	_, err = store.Fail(b.ID, "it failed")
	require.NoError(t, err)
	side.changed(b.ID)
	assert.Len(t, l.statuses(), 3, "a forgotten listen hears no more")
}

func TestAStateThatCouldNotBeSentIsSentAgain(t *testing.T) {
	t.Parallel()
	store, _ := taskStore(t)
	a, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	side := NewListens(store)
	l := &heard{id: "L", fail: true}
	_, err = side.Admit(l, listenRequest(true, []any{a.ID}))
	require.NoError(t, err)
	side.Acknowledged(l)
	l.mu.Lock()
	l.fail = false
	l.mu.Unlock()
	side.changed(a.ID)
	assert.Equal(t, []string{a.ID + " working"}, l.statuses())
}

func TestACompletedTaskWhoseResultCannotBeReadIsNotAnnounced(t *testing.T) {
	t.Parallel()
	store, dir := taskStore(t)
	a, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	_, err = store.Complete(a.ID, []byte(`{"content":[]}`), "done")
	require.NoError(t, err)
	results, err := filepath.Glob(filepath.Join(dir, "*", a.ID+".result"))
	require.NoError(t, err)
	require.Len(t, results, 1, "the stored result, to damage")
	require.NoError(t, os.WriteFile(results[0], []byte(`{"content":["changed"]}`), 0o600))
	side := NewListens(store)
	l := &heard{id: "L"}
	_, err = side.Admit(l, listenRequest(true, []any{a.ID}))
	require.NoError(t, err)
	side.Acknowledged(l)
	assert.Empty(t, l.statuses(), "a damaged result is reported by tasks/get, never announced as completed")
}
