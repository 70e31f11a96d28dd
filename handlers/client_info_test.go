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
		{"a legacy client declaring nothing", false, nil, "legacy", []any{},
			[3]bool{false, false, false}, []string{"did not declare the tasks extension", "query_action/invoke_action", "a preview is given as text", "ask the user in chat"}},
		{"a legacy client declaring everything", false, everything, "legacy",
			[]any{"elicitation.form", "extensions/io.modelcontextprotocol/tasks", "extensions/io.modelcontextprotocol/ui"},
			[3]bool{false, true, true}, []string{"at a legacy initialize"}},
		{"a legacy client declaring only url elicitation", false, &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}, "legacy",
			[]any{"elicitation.url"}, [3]bool{false, false, false}, []string{"did not declare form elicitation"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			caps := tt.caps
			c := &pipeline.Call{}
			c.Client = pipeline.NewClient(tt.modern, func() *mcp.ClientCapabilities { return caps })
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
	assert.True(t, describeClient(c, true).BackgroundTransfers.On)
	assert.Contains(t, describeClient(c, true).BackgroundTransfers.Line, "Background transfers: on.")
	assert.False(t, describeClient(pipeline.NewClient(true, nil), true).BackgroundTransfers.On)
}
