package e2e

// What the host can use (issue 42 §2): get_runtime_info reads the
// declaration of the client of the call (per request on 2026-07-28, at
// initialize on the legacy protocol) and says, per feature, on or off and
// what stands in for it.

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type clientFeature struct {
	On   bool   `json:"on"`
	Line string `json:"line"`
}

type clientReport struct {
	Client struct {
		Protocol            string        `json:"protocol"`
		Declared            []string      `json:"declared"`
		BackgroundTransfers clientFeature `json:"background_transfers"`
		PreviewPanel        clientFeature `json:"preview_panel"`
		AskForMissingParams clientFeature `json:"ask_for_missing_params"`
	} `json:"client"`
}

func TestRuntimeInfoSaysWhatThisHostCanUse(t *testing.T) {
	t.Parallel()
	tasksAndApps := appsCaps()
	tasksAndApps.AddExtension("io.modelcontextprotocol/tasks", nil)
	forEachVersion(t, func(t *testing.T, version string) {
		tests := []struct {
			name string
			caps *mcp.ClientCapabilities
			// transfers, panel: whether each is on.
			transfers, panel bool
			says             []string
		}{
			{"declaring tasks and Apps", tasksAndApps, version == modern, true, nil},
			{"declaring neither", &mcp.ClientCapabilities{}, false, false,
				[]string{"did not declare the tasks extension", "query_action/invoke_action", "a preview is given as text"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				env := with(writeEnv(), "SNOWLUMA_MCP_TASK_DIR", filepath.Join(t.TempDir(), "tasks"))
				s := startWith(t, version, env, &mcp.ClientOptions{Capabilities: tt.caps})
				r := s.call(t, "get_runtime_info", nil, nil)
				require.False(t, r.IsError, r.Text)
				var info clientReport
				r.decodeResult(t, &info)
				c := info.Client
				assert.Equal(t, map[string]string{modern: modern, legacy: "legacy"}[version], c.Protocol)
				assert.Equal(t, tt.transfers, c.BackgroundTransfers.On, c.BackgroundTransfers.Line)
				assert.Equal(t, tt.panel, c.PreviewPanel.On, c.PreviewPanel.Line)
				assert.Equal(t, tt.panel, slices.Contains(c.Declared, "extensions/io.modelcontextprotocol/ui"))
				assert.False(t, c.AskForMissingParams.On, "no elicitation declared: %s", c.AskForMissingParams.Line)
				assert.Contains(t, c.AskForMissingParams.Line, "ask the user in chat")
				each := []string{c.BackgroundTransfers.Line, c.PreviewPanel.Line, c.AskForMissingParams.Line}
				for _, l := range each {
					assert.NotContains(t, l, "\n", "one line each")
				}
				lines := strings.Join(each, "\n")
				for _, s := range tt.says {
					assert.Contains(t, lines, s)
				}
			})
		}
	})
}
