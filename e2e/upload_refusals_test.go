package e2e

// Automatic upload containment (BASE-7): execution.input_file must be a
// regular file inside SNOWLUMA_MCP_UPLOAD_ROOT after resolving symlinks.
// Every escape is refused before anything is read or sent, so not a single
// request reaches SnowLuma; without an upload root the feature is off and
// says how to turn it on.

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestUploadRefusesFilesOutsideTheRoot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		says  string
		input func(t *testing.T, d streamDirs, outside string) string
	}{
		{"a relative path with ..", `a ".." component`, func(_ *testing.T, _ streamDirs, _ string) string { return "../secret.bin" }},
		{"a .. component that comes back inside", `a ".." component`, func(_ *testing.T, d streamDirs, _ string) string {
			return filepath.Join(d.upload, "sub") + "/../inside.bin"
		}},
		{"an absolute path with .. leaving the root", `a ".." component`, func(_ *testing.T, d streamDirs, _ string) string {
			return d.upload + "/../secret.bin"
		}},
		{"an absolute path outside the root", "resolves outside the upload root", func(_ *testing.T, _ streamDirs, outside string) string { return outside }},
		{"a symlink escaping the root", "resolves outside the upload root", func(t *testing.T, d streamDirs, outside string) string {
			link := filepath.Join(d.upload, "innocent.bin")
			require.NoError(t, os.Symlink(outside, link))
			return link
		}},
		{"a file under a symlinked directory escaping the root", "resolves outside the upload root", func(t *testing.T, d streamDirs, outside string) string {
			require.NoError(t, os.Symlink(filepath.Dir(outside), filepath.Join(d.upload, "dirlink")))
			return filepath.Join(d.upload, "dirlink", filepath.Base(outside))
		}},
		{"a directory", "not a regular file", func(t *testing.T, d streamDirs, _ string) string {
			require.NoError(t, os.Mkdir(filepath.Join(d.upload, "folder"), 0o700))
			return filepath.Join(d.upload, "folder")
		}},
		{"the upload root itself", "names the upload root itself", func(_ *testing.T, d streamDirs, _ string) string { return d.upload }},
		{"a named pipe inside the root", "not a regular file", func(t *testing.T, d streamDirs, _ string) string {
			p := filepath.Join(d.upload, "pipe")
			require.NoError(t, syscall.Mkfifo(p, 0o600))
			return p
		}},
		{"a file that does not exist", "does not exist", func(_ *testing.T, d streamDirs, _ string) string {
			return filepath.Join(d.upload, "missing.bin")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t)
				// A secret beside the root, and a harmless file inside it.
				outside := writeFile(t, dirs.root, "secret.bin", []byte("never upload me"))
				writeFile(t, dirs.upload, "inside.bin", []byte("inside"))
				require.NoError(t, os.MkdirAll(filepath.Join(dirs.upload, "sub"), 0o700))
				s := start(t, version, env)
				r, traceID := s.uploadCall(t, tt.input(t, dirs, outside))
				assert.True(t, r.IsError, "the upload must be refused: %s", r.Text)
				assert.Equal(t, "invalid_argument", r.Diag.Kind)
				assert.Equal(t, "failed", r.Diag.Outcome, "nothing was sent, so nothing happened")
				assert.Contains(t, r.Diag.Message, "execution.input_file", "the refusal names the input file")
				assert.Contains(t, r.Diag.Message, tt.says, "the refusal says what is actually wrong")
				assert.NotContains(t, r.Diag.Message, "never upload me")
				assert.Empty(t, snow.ByTrace(traceID), "not one request may reach SnowLuma")
			})
		})
	}
}

func TestUploadWithoutARootIsDisabled(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		dir := t.TempDir()
		file := writeFile(t, dir, "a.bin", []byte("data"))
		s := start(t, version, with(writeEnv(), "SNOWLUMA_MCP_DOWNLOAD_DIR", filepath.Join(dir, "dl")))
		r, traceID := s.uploadCall(t, file)
		assert.True(t, r.IsError)
		assert.Equal(t, "invalid_argument", r.Diag.Kind)
		assert.Contains(t, r.Diag.Message, "SNOWLUMA_MCP_UPLOAD_ROOT", "the error says how to enable uploads")
		assert.Contains(t, r.Diag.NextStep, "tell the user", "only the user can set the upload root")
		assert.Contains(t, r.Diag.NextStep, "SNOWLUMA_MCP_UPLOAD_ROOT")
		assert.NotContains(t, r.Diag.NextStep, "Correct the arguments")
		assert.Empty(t, snow.ByTrace(traceID))
	})
}

func TestExecutionOptionsAreChecked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     func(file string) map[string]any
		wantText string
	}{
		{"execution on an action that is not upload_file_stream", func(file string) map[string]any {
			return map[string]any{"action": "download_file_stream", "execution": map[string]any{"input_file": file}}
		}, fake.UploadAction},
		{"execution together with params", func(file string) map[string]any {
			return map[string]any{"action": fake.UploadAction, "params": map[string]any{"stream_id": "mine"},
				"execution": map[string]any{"input_file": file}}
		}, "params"},
		{"an unknown execution option", func(file string) map[string]any {
			return map[string]any{"action": fake.UploadAction, "execution": map[string]any{"input_file": file, "chunk": 1}}
		}, ""},
		{"an empty input_file", func(string) map[string]any {
			return map[string]any{"action": fake.UploadAction, "execution": map[string]any{"input_file": ""}}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t)
				file := writeFile(t, dirs.upload, "a.bin", []byte("data"))
				s := start(t, version, env)
				traceID, tp := newTrace(t)
				r := s.call(t, "invoke_action", tt.args(file), map[string]any{"traceparent": tp})
				assert.True(t, r.IsError)
				assert.Equal(t, "invalid_argument", r.Diag.Kind)
				if tt.wantText != "" {
					assert.Contains(t, r.Diag.Message, tt.wantText)
				}
				assert.Empty(t, snow.ByTrace(traceID))
			})
		})
	}
}

func TestUploadOverTheFileLimitIsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, dirs := streamEnv(t, "SNOWLUMA_MCP_MAX_FILE_BYTES", "1000")
		file := writeFile(t, dirs.upload, "big.bin", randomBytes(t, 1001))
		s := start(t, version, env)
		r, traceID := s.uploadCall(t, file)
		assert.True(t, r.IsError, r.Text)
		assert.Equal(t, "limit", r.Diag.Kind)
		assert.Empty(t, snow.ByTrace(traceID), "nothing is sent for a file over the limit")
	})
}
