package e2e

// Background tasks (TASK-1..5, issue 11) with the real binary: who sees the
// task tools, the task handle, tasks/get returning the stored result
// exactly as tools/call renders it, refusals, cancellation, the
// concurrency cap, paging, and the lifecycle methods' errors.

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func toolNames(t *testing.T, m rawMessage) []string {
	t.Helper()
	require.Nil(t, m.Error, "%s", m)
	var l struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(m.Result, &l))
	var names []string
	for _, tl := range l.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func TestOnlyClientsOfTheTasksExtensionSeeTaskTools(t *testing.T) {
	t.Parallel()
	noExt := modernMeta(modern)
	otherExt := modernMeta(modern)
	otherExt["io.modelcontextprotocol/clientCapabilities"] = map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/ui": map[string]any{}}}
	tests := []struct {
		name    string
		env     func(t *testing.T) map[string]string
		version string
		meta    map[string]any
		sees    bool
	}{
		{"a 2026-07-28 request declaring the extension, write mode, task dir", func(t *testing.T) map[string]string { e, _, _ := taskEnv(t); return e }, modern, tasksMeta(), true},
		{"a 2026-07-28 request without the extension", func(t *testing.T) map[string]string { e, _, _ := taskEnv(t); return e }, modern, noExt, false},
		{"a 2026-07-28 request declaring another extension", func(t *testing.T) map[string]string { e, _, _ := taskEnv(t); return e }, modern, otherExt, false},
		{"a legacy session", func(t *testing.T) map[string]string { e, _, _ := taskEnv(t); return e }, legacy, nil, false},
		{"write mode without a task dir", func(t *testing.T) map[string]string { e, _ := streamEnv(t); return e }, modern, tasksMeta(), false},
		{"read mode with a task dir", func(t *testing.T) map[string]string {
			e, _, _ := taskEnv(t)
			return with(e, "SNOWLUMA_MCP_MODE", "read")
		}, modern, tasksMeta(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := rawSession(t, tt.version, tt.env(t))
			p := map[string]any{}
			if tt.meta != nil {
				p["_meta"] = tt.meta
			}
			list := r.request("tools/list", p)
			names := toolNames(t, list)
			if tt.sees {
				assert.Contains(t, names, "invoke_action_background")
				assert.Contains(t, names, "list_tasks")
			} else {
				assert.NotContains(t, names, "invoke_action_background")
				assert.NotContains(t, names, "list_tasks")
			}
			if tt.version == modern {
				f := list.fields(t)
				assert.JSONEq(t, `300000`, string(f["ttlMs"]), "tools/list keeps its cache lifetime")
				assert.JSONEq(t, `"private"`, string(f["cacheScope"]), "the list varies by client: private")
				d := r.request("server/discover", map[string]any{"_meta": tt.meta})
				require.Nil(t, d.Error, "%s", d)
				var disc struct {
					Capabilities struct {
						Extensions map[string]json.RawMessage `json:"extensions"`
					} `json:"capabilities"`
				}
				require.NoError(t, json.Unmarshal(d.Result, &disc))
				if tt.sees {
					assert.JSONEq(t, `{}`, string(disc.Capabilities.Extensions[tasksExt]), "the extension is advertised as an empty object")
				} else {
					assert.NotContains(t, disc.Capabilities.Extensions, tasksExt)
				}
			}
			if tt.sees {
				return
			}
			// Calling a task tool anyway is refused, and nothing runs.
			tag := newTag(t)
			args := map[string]any{"action": "download_file_stream", "params": map[string]any{"file": fake.FileHello, fake.Marker: "tag:" + tag}}
			call := map[string]any{"name": "invoke_action_background", "arguments": args}
			if tt.meta != nil {
				call["_meta"] = tt.meta
			}
			res := r.request("tools/call", call)
			require.NotNil(t, res.Error, "a task tool is refused: %s", res)
			if tt.version == modern && tt.name != "write mode without a task dir" && tt.name != "read mode with a task dir" {
				assert.Equal(t, -32021, res.Error.Code, "a modern client is told which capability it lacks")
				assert.JSONEq(t, `{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`, string(res.Error.Data))
			} else {
				assert.Equal(t, -32602, res.Error.Code, "the tool does not exist here: %s", res)
			}
			assert.Empty(t, snow.ByTag(tag), "nothing reached SnowLuma")
		})
	}
}

func TestABackgroundDownloadEndsWithTheResultToolsCallWouldHaveReturned(t *testing.T) {
	t.Parallel()
	env, dirs, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	tag := newTag(t)
	m := startTask(r, "download_file_stream", map[string]any{"file": fake.FileSeed}, tag, "")
	h := decodeTask(t, m)
	f := m.fields(t)
	assert.Equal(t, "task", h.ResultType)
	assert.Len(t, h.TaskID, 32)
	assert.Equal(t, "working", h.Status)
	assert.NotEmpty(t, h.CreatedAt)
	assert.NotEmpty(t, h.LastUpdatedAt)
	assert.JSONEq(t, `null`, string(f["ttlMs"]), "ttlMs is present and null: results never expire")
	require.NotNil(t, h.PollIntervalMs)
	assert.Equal(t, 1000, *h.PollIntervalMs)
	assert.NotContains(t, f, "task", "the task fields are flat, not nested")

	done := awaitTask(t, r, h.TaskID)
	require.Equal(t, "completed", done.Status, "%+v", done)
	assert.Equal(t, "complete", done.ResultType, "tasks/get answers with resultType complete")
	assert.Equal(t, h.CreatedAt, done.CreatedAt)

	// The synchronous call of the same download, for comparison.
	sync := r.request("tools/call", withMeta(map[string]any{"name": "invoke_action", "arguments": map[string]any{
		"action": "download_file_stream", "params": map[string]any{"file": fake.FileSeed, fake.Marker: "tag:" + newTag(t)}}}, tasksMeta()))
	require.Nil(t, sync.Error)
	var viaTask, direct map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(done.Result, &viaTask))
	require.NoError(t, json.Unmarshal(sync.Result, &direct))
	assert.JSONEq(t, `"complete"`, string(viaTask["resultType"]), "the nested result carries its own resultType")
	for k := range direct {
		if k != "_meta" {
			assert.Contains(t, viaTask, k, "the stored result has every field of a tools/call result")
		}
	}
	for k := range viaTask {
		if k != "_meta" {
			assert.Contains(t, direct, k, "and no other")
		}
	}
	var tr, dr struct {
		StructuredContent struct {
			Result struct {
				SavedFile struct {
					Path   string `json:"path"`
					Size   int64  `json:"size"`
					SHA256 string `json:"sha256"`
				} `json:"saved_file"`
			} `json:"result"`
			Diagnostics diagnostics `json:"diagnostics"`
		} `json:"structuredContent"`
		Meta map[string]any `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(done.Result, &tr))
	require.NoError(t, json.Unmarshal(sync.Result, &dr))
	assert.Equal(t, "success", tr.StructuredContent.Diagnostics.Outcome)
	assert.Equal(t, dr.StructuredContent.Result.SavedFile.SHA256, tr.StructuredContent.Result.SavedFile.SHA256)
	assert.NotEmpty(t, tr.Meta["traceparent"], "the task's result names its trace")
	src, _ := fake.StreamFileAt(fake.FileSeed)
	onDisk, err := os.ReadFile(tr.StructuredContent.Result.SavedFile.Path)
	require.NoError(t, err)
	assert.Equal(t, sha256Hex(src.Data), sha256Hex(onDisk))
	assertNoPartial(t, dirs.download)
	assert.Len(t, snow.ByTag(tag), 1, "the task ran once")
}

// TestSDKClientsWithoutTheExtensionKeepTheSynchronousTools drives both
// protocol generations with the official Go SDK client, which declares no
// tasks extension: with tasks enabled on the server it still sees exactly
// the synchronous tools, and they work.
func TestSDKClientsWithoutTheExtensionKeepTheSynchronousTools(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, _, _ := taskEnv(t)
		s := start(t, version, env)
		assert.NotContains(t, s.tools, "invoke_action_background")
		assert.NotContains(t, s.tools, "list_tasks")
		assert.Contains(t, s.tools, "invoke_action")
		c := s.run(t, "invoke_action", "download_file_stream", map[string]any{"file": fake.FileHello}, "")
		assert.False(t, c.res.IsError, c.res.Text)
	})
}

// TestALegacySessionDeclaringTheExtensionStaysSynchronous: the tasks
// extension is a 2026-07-28 feature, so a legacy initialize that declares
// it is neither told the server has it nor shown the task tools.
func TestALegacySessionDeclaringTheExtensionStaysSynchronous(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, legacy, env)
	init := r.request("initialize", map[string]any{
		"protocolVersion": legacy,
		"capabilities":    map[string]any{"extensions": map[string]any{tasksExt: map[string]any{}}},
		"clientInfo":      map[string]any{"name": "snowluma-e2e-raw", "version": "1.0.0"},
	})
	require.Nil(t, init.Error, "%s", init)
	assert.NotContains(t, string(init.Result), tasksExt, "the extension is not advertised to a legacy session")
	r.notify("notifications/initialized", nil)
	names := toolNames(t, r.request("tools/list", map[string]any{}))
	assert.NotContains(t, names, "invoke_action_background")
	assert.NotContains(t, names, "list_tasks")
	assert.Contains(t, names, "invoke_action")
	get := r.request("tasks/get", map[string]any{"taskId": "0123456789abcdef0123456789abcdef"})
	require.NotNil(t, get.Error)
	assert.Equal(t, -32021, get.Error.Code, "%s", get)
}
