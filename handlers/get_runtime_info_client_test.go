package handlers

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/uiasset"
)

// TestRuntimeInfoSaysWhatThisClientCanUse: get_runtime_info reads the
// declaration of the client of this very call and says, per feature, on
// or off and what stands in for it, in one line each.
func TestRuntimeInfoSaysWhatThisClientCanUse(t *testing.T) {
	t.Parallel()
	everything := &mcp.ClientCapabilities{
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}},
		Extensions: map[string]any{"io.modelcontextprotocol/tasks": map[string]any{},
			"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []any{uiasset.MIMEType}}},
	}
	tests := []struct {
		name     string
		modern   bool
		caps     *mcp.ClientCapabilities
		protocol string
		declared []any
		on       [3]bool
		says     []string
	}{
		{"a modern client declaring everything", true, everything, "2026-07-28",
			[]any{"elicitation.form", "extensions/io.modelcontextprotocol/tasks", "extensions/io.modelcontextprotocol/ui"},
			[3]bool{false, true, true}, []string{"declared the tasks extension, but the server keeps no task folder"}},
		{"a legacy client declaring nothing", false, nil, "2025-06-18", []any{},
			[3]bool{false, false, false}, []string{"did not declare the tasks extension", "in the foreground through invoke_action", "a preview is given as text", "ask the user in chat"}},
		{"a legacy client declaring everything", false, everything, "2025-11-25",
			[]any{"elicitation.form", "extensions/io.modelcontextprotocol/tasks", "extensions/io.modelcontextprotocol/ui"},
			[3]bool{false, true, true}, []string{"at a legacy initialize"}},
		{"a legacy client declaring only url elicitation", false, &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}, "2025-06-18",
			[]any{"elicitation.url"}, [3]bool{false, false, false}, []string{"did not declare form elicitation"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			caps := tt.caps
			c := &pipeline.Call{}
			c.Client = pipeline.NewClient(tt.modern, func() *mcp.ClientCapabilities { return caps })
			c.Client.Protocol = tt.protocol
			v, err := call(t, GetRuntimeInfo(deps(t, config.ModeWrite)), `{}`, c)
			require.NoError(t, err)
			client := v.(map[string]any)["client"].(map[string]any)
			assert.Equal(t, tt.protocol, client["protocol"])
			assert.Equal(t, tt.declared, client["declared"])
			var lines string
			for i, name := range []string{"background_transfers", "preview_panel", "ask_for_missing_params"} {
				f := client[name].(map[string]any)
				assert.Equal(t, tt.on[i], f["on"], name)
				lines += f["line"].(string) + "\n"
			}
			for _, s := range tt.says {
				assert.Contains(t, lines, s)
			}
		})
	}
}

// TestBackgroundTransfersNeedTheHostAndTheTaskFolder: on only when both
// the host declared the tasks extension and the server keeps a task store.
func TestBackgroundTransfersNeedTheHostAndTheTaskFolder(t *testing.T) {
	t.Parallel()
	tasks := &mcp.ClientCapabilities{Extensions: map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}
	c := pipeline.NewClient(true, func() *mcp.ClientCapabilities { return tasks })
	assert.True(t, describeClient(c, config.ModeWrite, true).BackgroundTransfers.On)
	assert.Contains(t, describeClient(c, config.ModeWrite, true).BackgroundTransfers.Line, "Background transfers: on.")
	assert.False(t, describeClient(pipeline.NewClient(true, nil), config.ModeWrite, true).BackgroundTransfers.On)
}

// TestEachLineIsTrueForThisModeAndThisClient (RT-3): a client declaring
// everything is told only what the server's mode offers: docs mode has
// no *_with_input tool and no transfer at all, read mode asks through
// query_action_with_input but has no transfer (query_action refuses
// streams, invoke_action is write mode's), and no line names a tool the
// mode does not have.
func TestEachLineIsTrueForThisModeAndThisClient(t *testing.T) {
	t.Parallel()
	everything := &mcp.ClientCapabilities{
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}},
		Extensions:  map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}},
	}
	tests := []struct {
		mode          config.Mode
		transfers     bool
		asks          bool
		says, notSays []string
	}{
		{config.ModeDocs, false, false, []string{"need write mode, and this server runs in docs mode", "runs in docs mode, which runs no action"},
			[]string{"query_action", "invoke_action", "in a form"}},
		{config.ModeRead, false, true, []string{"need write mode, and this server runs in read mode", "query_action_with_input can ask"},
			[]string{"invoke_action", "through query_action"}},
		{config.ModeWrite, true, true, []string{"Background transfers: on", "query_action_with_input and invoke_action_with_input can ask"}, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			t.Parallel()
			c := pipeline.NewClient(true, func() *mcp.ClientCapabilities { return everything })
			info := describeClient(c, tt.mode, tt.mode == config.ModeWrite)
			assert.Equal(t, tt.transfers, info.BackgroundTransfers.On)
			assert.Equal(t, tt.asks, info.AskForMissingParams.On)
			lines := info.BackgroundTransfers.Line + "\n" + info.AskForMissingParams.Line
			for _, w := range tt.says {
				assert.Contains(t, lines, w)
			}
			for _, w := range tt.notSays {
				assert.NotContains(t, lines, w)
			}
		})
	}
}
