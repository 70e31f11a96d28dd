package server

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp/internal/server/tasks"
)

// tasksMetaJSON is the _meta of a 2026-07-28 request declaring the tasks
// extension.
const tasksMetaJSON = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + tasksCaps + `}`

// The tasks gate and the background hand-off, seen from the wire: who may
// see and call the task tools, and what a background start answers.
func TestOnlyARequestDeclaringTasksMayUseThem(t *testing.T) {
	t.Parallel()
	o := listOptions(t, false)
	s := New(o)
	t.Cleanup(func() { s.StopTasks(waitFor) }) // before the store closes
	peer := speak(t, s.Server)
	// A stream download is admitted (and fails later: SnowLuma is
	// offline); download_file is no stream action, so a start of it is
	// refused at admission.
	start := func(meta string, args string) *jsonrpc.Response {
		return peer.call("tools/call", `{`+meta+`,"name":"invoke_action_background","arguments":`+args+`}`)
	}
	admitted := `{"action":"download_file_stream","params":{"file":"/tmp/f"}}`

	t.Run("a modern request without the declaration is told what it lacks", func(t *testing.T) {
		var je *jsonrpc.Error
		require.ErrorAs(t, start(modernMetaJSON, admitted).Error, &je)
		assert.Equal(t, int64(tasks.CodeMissingCapability), je.Code)
		assert.JSONEq(t, `{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`, string(je.Data))
	})
	t.Run("a legacy session does not know the tool", func(t *testing.T) {
		legacy := speak(t, New(listOptions(t, false)).Server)
		require.Nil(t, legacy.initialize("2025-11-25").Error)
		r := legacy.call("tools/call", `{"name":"invoke_action_background","arguments":`+admitted+`}`)
		var je *jsonrpc.Error
		require.ErrorAs(t, r.Error, &je)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
		assert.Contains(t, je.Message, `unknown tool "invoke_action_background"`)
	})
	t.Run("an admitted start answers with the task's handle", func(t *testing.T) {
		r := start(tasksMetaJSON, admitted)
		require.Nil(t, r.Error)
		var h map[string]any
		require.NoError(t, json.Unmarshal(r.Result, &h))
		assert.Equal(t, "task", h["resultType"])
		id, _ := h["taskId"].(string)
		require.NotEmpty(t, id, "%s", r.Result)
		assert.Equal(t, "working", h["status"])
		assert.EqualValues(t, 1000, h["pollIntervalMs"], "the polling pace every handle advises")
		_, err := o.Tasks.Get(id)
		assert.NoError(t, err, "the task is recorded before the handle goes out")
	})
	t.Run("a refused start is a tool error and no task", func(t *testing.T) {
		before, _, err := o.Tasks.Page(nil, 1000)
		require.NoError(t, err)
		r := start(tasksMetaJSON, `{"action":"download_file","params":{}}`)
		require.Nil(t, r.Error)
		var res map[string]any
		require.NoError(t, json.Unmarshal(r.Result, &res))
		assert.Equal(t, true, res["isError"], "%s", r.Result)
		assert.NotContains(t, res, "taskId")
		after, _, err := o.Tasks.Page(nil, 1000)
		require.NoError(t, err)
		assert.Len(t, after, len(before))
	})
	t.Run("tools/list shows the task tools only to a request declaring them", func(t *testing.T) {
		names := func(meta string) []string {
			r := peer.call("tools/list", `{`+meta+`}`)
			require.Nil(t, r.Error)
			var l struct{ Tools []struct{ Name string } }
			require.NoError(t, json.Unmarshal(r.Result, &l))
			var out []string
			for _, tl := range l.Tools {
				out = append(out, tl.Name)
			}
			return out
		}
		assert.Contains(t, names(tasksMetaJSON), "invoke_action_background")
		assert.NotContains(t, names(modernMetaJSON), "invoke_action_background")
	})
	t.Run("server/discover names the extension only for a request declaring it", func(t *testing.T) {
		with := peer.call("server/discover", `{`+tasksMetaJSON+`}`)
		require.Nil(t, with.Error)
		assert.Contains(t, string(with.Result), `"io.modelcontextprotocol/tasks":{}`)
		without := peer.call("server/discover", `{`+modernMetaJSON+`}`)
		require.Nil(t, without.Error)
		assert.NotContains(t, string(without.Result), "io.modelcontextprotocol/tasks")
	})
}
