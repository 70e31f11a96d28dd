package e2e

// The MCP Bundle of make dist as Claude Desktop runs it (issue 29): this
// platform's .mcpb unpacked, the user's settings filled in and the server
// started from the manifest's command, all by @anthropic-ai/mcpb (pinned in
// e2e/clients), the code the mcpb README says Claude for macOS and Windows
// uses; then driven by the pinned TypeScript client in every negotiation
// mode against the fake SnowLuma. cmd/release's tests validate the bundles of
// all six targets; this one runs the bundle of the platform it is on.

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bundleVersion is the version the test's release is stamped with.
const bundleVersion = "1.2.3-mcpb.1"

// bundleReport is bundle.mjs's report.
type bundleReport struct {
	negotiatedReport
	Command       string            `json:"command"`
	Env           map[string]string `json:"env"`
	TokenPassed   bool              `json:"tokenPassed"`
	ManifestTools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"manifestTools"`
	ServerInfo struct {
		Version string `json:"version"`
	} `json:"serverInfo"`
	Tools   []string     `json:"tools"`
	Runtime clientResult `json:"runtime"`
	Query   clientResult `json:"query"`
}

func TestBundleRunsAsTheHostStartsIt(t *testing.T) {
	t.Parallel()
	interopClients(t)
	root, err := moduleRoot()
	require.NoError(t, err)
	dist := filepath.Join(t.TempDir(), "dist")
	build := exec.Command("go", "run", "./cmd/release", "-version", bundleVersion, "-targets", runtime.GOOS+"/"+runtime.GOARCH, "-out", dist)
	build.Dir = root
	build.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "make dist for this platform: %s", out)
	file := filepath.Join(dist, "snowluma-mcp_"+bundleVersion+"_"+runtime.GOOS+"_"+runtime.GOARCH+".mcpb")

	forEachEra(t, func(t *testing.T, era string) {
		downloads := filepath.Join(t.TempDir(), "downloads")
		unpacked := filepath.Join(t.TempDir(), "Claude Extensions", "snowluma-mcp")
		// As the host's form leaves them: the events URL, the upload and
		// task folders not given at all, the lockdown list cleared.
		settings := map[string]any{"mode": "read", "endpoint": snow.URL(), "token": token, "download_dir": downloads, "trusted_users": ""}
		var got bundleReport
		runClient(t, "bundle.mjs", era, nil, map[string]any{"bundle": file, "dir": unpacked, "userConfig": settings}, &got)
		got.assertNegotiated(t, era)

		// No .exe on Windows either (see cmd/release/bundle.go).
		assert.Equal(t, filepath.Join(unpacked, "server", "snowluma-mcp"), filepath.FromSlash(got.Command), "the bundled binary, where the host unpacked it")
		assert.True(t, got.TokenPassed, "the token reaches the server as SNOWLUMA_MCP_TOKEN")
		assert.Equal(t, map[string]string{
			"SNOWLUMA_MCP_MODE": "read", "SNOWLUMA_MCP_ENDPOINT": snow.URL(), "SNOWLUMA_MCP_DOWNLOAD_DIR": downloads,
			"SNOWLUMA_MCP_EVENTS_URL": "", "SNOWLUMA_MCP_EVENTS_TOKEN": "", "SNOWLUMA_MCP_UPLOAD_ROOT": "", "SNOWLUMA_MCP_TASK_DIR": "", "SNOWLUMA_MCP_TRUSTED_USERS": "",
		}, got.Env, "a setting left out reaches the server empty, never as its ${user_config…} placeholder")
		assert.Equal(t, bundleVersion, got.ServerInfo.Version, "the bundle runs the release's binary")

		// The manifest says when each tool appears; in read mode with no
		// events URL and no task folder, exactly these are listed.
		var want []string
		for _, tool := range got.ManifestTools {
			if strings.HasSuffix(tool.Description, " Every mode.") || strings.HasSuffix(tool.Description, " Read and write mode.") {
				want = append(want, tool.Name)
			}
		}
		var everyTool []string
		for _, variant := range []string{"write-events", "tasks"} {
			everyTool = append(everyTool, listed(t, variant)...)
		}
		assert.Len(t, got.ManifestTools, len(everyTool), "the manifest lists every tool the server can list")
		assert.ElementsMatch(t, want, got.Tools, "the tools the manifest promises for read mode without the optional settings")

		require.False(t, got.Runtime.IsError, "%+v", got.Runtime)
		var info struct {
			Mode      string `json:"mode"`
			Transport struct {
				DownloadDir   string `json:"download_dir"`
				UploadEnabled bool   `json:"upload_enabled"`
			} `json:"transport"`
			Lockdown struct {
				Enabled bool `json:"enabled"`
			} `json:"lockdown"`
		}
		got.Runtime.decode(t, &info)
		assert.Equal(t, "read", info.Mode)
		assert.Equal(t, downloads, info.Transport.DownloadDir, "the folder picked in the host's form")
		assert.False(t, info.Transport.UploadEnabled, "no upload folder given: upload is off")
		assert.False(t, info.Lockdown.Enabled, "a cleared lockdown list: lockdown is off")

		require.False(t, got.Query.IsError, "a read-only action runs against SnowLuma with the token given: %+v", got.Query)
		assert.Equal(t, "success", got.Query.StructuredContent.Diagnostics.Outcome)
	})
}
