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
				[]string{"did not declare the tasks extension", "in the foreground through invoke_action", "a preview is given as text"}},
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
				assert.Equal(t, version, c.Protocol, "the version the client speaks")
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

// TestTheClientReportIsTrueForThisMode (issue 51 §5, RT-3): a client
// declaring form elicitation and the tasks extension is told, in each
// mode, only what that mode offers: docs mode has no *_with_input tool and
// no transfer; read mode asks through query_action_with_input and has no
// transfer (query_action refuses streams, invoke_action is write mode's);
// no line names a tool the mode lacks. client.protocol is the version the
// client speaks, a legacy one's included (2025-06-18, as the measured
// hosts speak, and 2025-11-25).
func TestTheClientReportIsTrueForThisMode(t *testing.T) {
	t.Parallel()
	caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}
	caps.AddExtension("io.modelcontextprotocol/tasks", nil)
	tests := []struct {
		mode          string
		env           map[string]string
		asks          bool
		says, notSays []string
	}{
		{"docs", docsEnv(), false, []string{"runs in docs mode, which runs no action", "need write mode, and this server runs in docs mode"},
			[]string{"query_action", "invoke_action", "in a form"}},
		{"read", readEnv(), true, []string{"query_action_with_input can ask", "need write mode, and this server runs in read mode"},
			[]string{"invoke_action", "through query_action"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			for _, version := range []string{modern, legacy, "2025-06-18"} {
				t.Run(version, func(t *testing.T) {
					t.Parallel()
					s := startWith(t, version, tt.env, &mcp.ClientOptions{Capabilities: caps})
					r := s.call(t, "get_runtime_info", nil, nil)
					require.False(t, r.IsError, r.Text)
					var info clientReport
					r.decodeResult(t, &info)
					c := info.Client
					assert.Equal(t, version, c.Protocol)
					assert.Contains(t, c.Declared, "elicitation.form")
					assert.False(t, c.BackgroundTransfers.On)
					assert.Equal(t, tt.asks, c.AskForMissingParams.On, c.AskForMissingParams.Line)
					lines := c.BackgroundTransfers.Line + "\n" + c.AskForMissingParams.Line
					for _, w := range tt.says {
						assert.Contains(t, lines, w)
					}
					for _, w := range tt.notSays {
						assert.NotContains(t, lines, w)
					}
					for _, tool := range []string{"query_action_with_input", "invoke_action_with_input", "invoke_action", "query_action"} {
						if strings.Contains(lines, tool) {
							assert.Contains(t, s.toolNames(), tool, "a line names %s, which this mode offers", tool)
						}
					}
				})
			}
		})
	}
}
