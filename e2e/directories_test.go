package e2e

// Directories that write mode needs and cannot use (issue 30 §3): an upload
// root that is missing or a file is named on stderr at start, shown in
// get_runtime_info with its reason (and upload_enabled false), and an
// upload then fails as configuration naming the variable, before anything
// reaches SnowLuma. A download directory still to be created is no warning;
// one that cannot be created is.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestAnUnusableUploadRootIsTheUsersToFix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		root func(dir string) string
		says string
	}{
		{"a missing root", func(dir string) string { return filepath.Join(dir, "missing") }, "does not exist"},
		{"a root that is a file", func(dir string) string { return writeFile(t, dir, "root-file", []byte("x")) }, "names a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				dir := t.TempDir()
				file := writeFile(t, dir, "a.bin", []byte("data"))
				s := start(t, version, with(writeEnv(), "SNOWLUMA_MCP_DOWNLOAD_DIR", filepath.Join(dir, "dl"), "SNOWLUMA_MCP_UPLOAD_ROOT", tt.root(dir)))
				info := s.call(t, "get_runtime_info", nil, nil)
				var rt struct {
					Transport struct {
						UploadEnabled      bool   `json:"upload_enabled"`
						UploadRootProblem  string `json:"upload_root_problem"`
						DownloadDirProblem string `json:"download_dir_problem"`
					} `json:"transport"`
				}
				info.decodeResult(t, &rt)
				assert.False(t, rt.Transport.UploadEnabled)
				assert.Contains(t, rt.Transport.UploadRootProblem, "SNOWLUMA_MCP_UPLOAD_ROOT")
				assert.Contains(t, rt.Transport.UploadRootProblem, tt.says)
				assert.Empty(t, rt.Transport.DownloadDirProblem, "a download directory still to be created is fine")

				r, traceID := s.uploadCall(t, file)
				assert.True(t, r.IsError)
				assert.Equal(t, "configuration", r.Diag.Kind)
				assert.Equal(t, "failed", r.Diag.Outcome)
				assert.Contains(t, r.Diag.Message, "SNOWLUMA_MCP_UPLOAD_ROOT")
				assert.Contains(t, r.Diag.Message, tt.says)
				assert.NotContains(t, r.Diag.NextStep, "Correct the arguments")
				assert.Empty(t, snow.ByTrace(traceID), "not one request may reach SnowLuma")

				stderr := s.closeCleanly(t)
				assert.Contains(t, stderr, "snowluma-mcp: warning: SNOWLUMA_MCP_UPLOAD_ROOT ")
				assert.Contains(t, stderr, tt.says)
				assert.NotContains(t, stderr, "SNOWLUMA_MCP_DOWNLOAD_DIR")
				_, err := os.Stat(filepath.Join(dir, "dl"))
				assert.True(t, os.IsNotExist(err), "the download directory is created only by a download")
			})
		})
	}
}

func TestADownloadDirectoryThatCannotBeCreatedIsWarned(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		dir := t.TempDir()
		blocker := writeFile(t, dir, "blocker", []byte("x"))
		s := start(t, version, with(writeEnv(), "SNOWLUMA_MCP_DOWNLOAD_DIR", filepath.Join(blocker, "downloads")))
		info := s.call(t, "get_runtime_info", nil, nil)
		var rt struct {
			Transport json.RawMessage `json:"transport"`
		}
		info.decodeResult(t, &rt)
		assert.Contains(t, string(rt.Transport), `"download_dir_problem":"SNOWLUMA_MCP_DOWNLOAD_DIR cannot be created`)
		c := s.run(t, "invoke_action", "download_file_stream", map[string]any{"file": fake.FileHello}, "")
		assert.True(t, c.res.IsError)
		assert.Equal(t, "configuration", c.res.Diag.Kind)
		assert.Equal(t, "failed", c.res.Diag.Outcome)
		assert.Contains(t, c.res.Diag.Message, "SNOWLUMA_MCP_DOWNLOAD_DIR cannot be created")
		assert.Empty(t, snow.ByTrace(c.traceID), "the download is not asked of SnowLuma")
		stderr := s.closeCleanly(t)
		require.Contains(t, stderr, "snowluma-mcp: warning: SNOWLUMA_MCP_DOWNLOAD_DIR cannot be created")
	})
}
