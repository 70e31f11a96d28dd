package e2e

// The MCP Inspector's one-shot CLI, @modelcontextprotocol/inspector 2.12.0
// (`mcp-inspector --cli`), against the real binary in both of its protocol
// eras: legacy (initialize) and modern (server/discover in the same
// process, then 2026-07-28 requests). Nothing is scripted here: the test
// runs the CLI as a user would, with --format json, and reads its stdout.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inspector runs mcp-inspector --cli at era with the given method flags
// against a binary started with vars, and decodes its JSON output.
func inspector(t *testing.T, era string, vars map[string]string, out any, flags ...string) {
	t.Helper()
	node, dir := interopClients(t)
	var manifest struct {
		Bin map[string]string `json:"bin"`
	}
	pkg := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector")
	b, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &manifest))
	require.NotEmpty(t, manifest.Bin["mcp-inspector"])

	args := []string{filepath.Join(pkg, manifest.Bin["mcp-inspector"]), "--cli", "--protocol-era", era, "--format", "json"}
	args = append(args, flags...)
	for k, v := range vars {
		args = append(args, "-e", k+"="+v)
	}
	if _, set := vars["SNOWLUMA_MCP_STATE_DIR"]; !set {
		args = append(args, "-e", "SNOWLUMA_MCP_STATE_DIR="+freshStateDir())
	}
	// The variadic flags (-e, --tool-metadata) would swallow the server
	// command without the "--".
	args = append(args, "--", binary)
	ctx, cancel := context.WithTimeout(context.Background(), 2*safety)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = t.TempDir()
	// HOME is the suite's own; the secret store stays in memory, so the
	// Inspector writes nothing outside the test's directories.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "MCP_INSPECTOR_SECRET_STORE=memory"}
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	require.NoError(t, cmd.Run(), "mcp-inspector --cli failed; stdout: %s\nstderr:\n%s", redact(stdout.String()), stderr)
	assertNoSecrets(t, "inspector output", stdout.String(), stderr.Raw())
	require.NoError(t, json.Unmarshal(stdout.Bytes(), out), "inspector output: %s", redact(stdout.String()))
}

func TestInteropInspectorCLI(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			t.Run("tools/list shows the read-mode tools", func(t *testing.T) {
				t.Parallel()
				var got struct {
					Result struct {
						Tools []struct {
							Name string `json:"name"`
						} `json:"tools"`
					} `json:"result"`
				}
				inspector(t, era, readEnv(), &got, "--method", "tools/list")
				var names []string
				for _, tool := range got.Result.Tools {
					names = append(names, tool.Name)
				}
				assert.ElementsMatch(t, listed(t, "read"), names)
			})
			t.Run("tools/call runs a read with the given metadata", func(t *testing.T) {
				t.Parallel()
				traceID, tp := newTrace(t)
				var got struct {
					Result clientResult `json:"result"`
				}
				var meta struct {
					Result struct {
						Meta map[string]json.RawMessage `json:"_meta"`
					} `json:"result"`
				}
				var raw json.RawMessage
				inspector(t, era, readEnv(), &raw, "--method", "tools/call", "--tool-name", "query_action",
					"--tool-args-json", `{"action":"get_login_info"}`, "--tool-metadata", "traceparent="+tp)
				require.NoError(t, json.Unmarshal(raw, &got))
				require.NoError(t, json.Unmarshal(raw, &meta))
				require.False(t, got.Result.IsError, "%+v", got.Result)
				// Only a 2026-07-28 result names the server in _meta: the
				// era flag really chose the protocol generation.
				if era == "modern" {
					assert.Contains(t, meta.Result.Meta, "io.modelcontextprotocol/serverInfo")
				} else {
					assert.NotContains(t, meta.Result.Meta, "io.modelcontextprotocol/serverInfo")
				}
				assert.Equal(t, "success", got.Result.StructuredContent.Diagnostics.Outcome)
				var login struct {
					Data struct {
						UserID int64 `json:"user_id"`
					} `json:"data"`
				}
				got.Result.decode(t, &login)
				assert.Equal(t, int64(10001), login.Data.UserID)
				sent := snow.ByTrace(traceID)
				require.Len(t, sent, 1, "SnowLuma got one request under the --tool-metadata traceparent")
				assert.Equal(t, "get_login_info", sent[0].Action)
			})
		})
	}
}
