package tasks

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/task"
)

// The _meta of a 2026-07-28 request, declaring the tasks extension or not.
const (
	tasksMetaJSON  = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	modernMetaJSON = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
)

// peer is a raw JSON-RPC client of a bare SDK server with the task
// methods.
type peer struct {
	t    *testing.T
	conn mcp.Connection
	n    int
}

func methodsPeer(t *testing.T, store *task.Store) *peer {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	AddMethods(s, task.NewRunner(store, io.Discard, nil))
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	return &peer{t: t, conn: conn}
}

// call sends one request and returns its response.
func (p *peer) call(method, params string) *jsonrpc.Response {
	p.t.Helper()
	p.n++
	id, err := jsonrpc.MakeID(float64(p.n))
	require.NoError(p.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(p.t, p.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}))
	for {
		m, err := p.conn.Read(ctx)
		require.NoError(p.t, err)
		if r, ok := m.(*jsonrpc.Response); ok && r.ID == id {
			return r
		}
	}
}

func TestTaskMethodsAnswerFromTheStore(t *testing.T) {
	t.Parallel()
	store, dir := taskStore(t)
	working, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	done, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	_, err = store.Complete(done.ID, []byte(`{"content":[{"type":"text","text":"saved"}]}`), "saved")
	require.NoError(t, err)
	damaged, err := store.Create("invoke_action_background", "download_file")
	require.NoError(t, err)
	_, err = store.Complete(damaged.ID, []byte(`{"content":[]}`), "saved")
	require.NoError(t, err)
	results, err := filepath.Glob(filepath.Join(dir, "*", damaged.ID+".result"))
	require.NoError(t, err)
	require.Len(t, results, 1)
	require.NoError(t, os.WriteFile(results[0], []byte(`{"content":["x"]}`), 0o600))
	peer := methodsPeer(t, store)

	type answer struct {
		result string // a JSON object the answer must equal in the named fields
		code   int64
		why    string
	}
	tests := []struct {
		name, method, params string
		want                 answer
	}{
		{"get of a working task", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{result: `{"resultType":"complete","taskId":"` + working.ID + `","status":"working"}`}},
		{"get of a completed task carries its stored result", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"` + done.ID + `"}`,
			answer{result: `{"status":"completed","result":{"content":[{"type":"text","text":"saved"}]}}`}},
		{"a result that cannot be proven intact is an error", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"` + damaged.ID + `"}`,
			answer{code: jsonrpc.CodeInternalError, why: "do not simply rerun it"}},
		{"an unknown task", "tasks/get", `{` + tasksMetaJSON + `,"taskId":"nope"}`,
			answer{code: jsonrpc.CodeInvalidParams, why: "unknown task"}},
		{"no taskId", "tasks/get", `{` + tasksMetaJSON + `}`,
			answer{code: jsonrpc.CodeInvalidParams, why: "params.taskId is required"}},
		{"without the declaration", "tasks/get", `{` + modernMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{code: CodeMissingCapability, why: "needs the tasks extension"}},
		{"cancel is acknowledged", "tasks/cancel", `{` + tasksMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{result: `{"resultType":"complete"}`}},
		{"cancel of an unknown task", "tasks/cancel", `{` + tasksMetaJSON + `,"taskId":"nope"}`,
			answer{code: jsonrpc.CodeInvalidParams, why: "unknown task"}},
		{"update is acknowledged and ignored", "tasks/update", `{` + tasksMetaJSON + `,"taskId":"` + working.ID + `","inputResponses":{"k":{}}}`,
			answer{result: `{"resultType":"complete"}`}},
		{"update without the declaration", "tasks/update", `{` + modernMetaJSON + `,"taskId":"` + working.ID + `"}`,
			answer{code: CodeMissingCapability}},
		{"tasks/list no longer exists", "tasks/list", `{` + tasksMetaJSON + `}`,
			answer{code: jsonrpc.CodeMethodNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := peer.call(tt.method, tt.params)
			if tt.want.code != 0 {
				var je *jsonrpc.Error
				require.ErrorAs(t, r.Error, &je)
				assert.Equal(t, tt.want.code, je.Code)
				assert.Contains(t, je.Message, tt.want.why)
				return
			}
			require.Nil(t, r.Error)
			var got, want map[string]any
			require.NoError(t, json.Unmarshal(r.Result, &got))
			require.NoError(t, json.Unmarshal([]byte(tt.want.result), &want))
			for k, v := range want {
				assert.Equal(t, v, got[k], k)
			}
		})
	}
}
