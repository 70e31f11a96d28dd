package e2e

// Downloads (BASE-7): the three download actions save exactly the bytes
// SnowLuma streamed into the download dir on the MCP host, and report the
// saved file's path, name, size, sha256 and chunk count; a server file
// name is untrusted and never escapes the dir, hides the file or replaces
// an existing one.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestDownloadsSaveExactBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		action     string
		params     map[string]any
		faults     string
		source     string
		wantChunks int
	}{
		{"a one-chunk text file", "download_file_stream", map[string]any{"file": fake.FileHello}, "", fake.FileHello, 1},
		{"the 150 KiB seed at the default chunk size", "download_file_stream", map[string]any{"file": fake.FileSeed}, "", fake.FileSeed, 3},
		{"many small chunks", "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, "", fake.FileSeed, 16},
		{"an empty file", "download_file_stream", map[string]any{"file": fake.FileEmpty}, "", fake.FileEmpty, 0},
		{"a URL source of unknown size", "download_file_stream", map[string]any{"file": fake.FileURL}, "", fake.FileURL, 4},
		{"a size that is not announced", "download_file_stream", map[string]any{"file": fake.FileSeed}, "unannounced", fake.FileSeed, 3},
		{"a cached image through the image action", "download_file_image_stream", map[string]any{"file": fake.ImageID}, "", fake.ImageID, 64},
		{"a cached voice by file_id through the record action", "download_file_record_stream",
			map[string]any{"file_id": fake.VoiceID}, "", fake.VoiceID, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src, ok := fake.StreamFileAt(tt.source)
			require.True(t, ok)
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t)
				s := start(t, version, env)
				c := s.run(t, "invoke_action", tt.action, tt.params, tt.faults)
				require.False(t, c.res.IsError, c.res.Text)
				assert.Equal(t, "success", c.res.Diag.Outcome)
				var got savedResult
				c.res.decodeResult(t, &got)
				saved := got.SavedFile

				assert.Equal(t, dirs.download, filepath.Dir(saved.Path), "the file is saved in the download dir")
				assert.Equal(t, filepath.Base(saved.Path), saved.FileName)
				onDisk, err := os.ReadFile(saved.Path)
				require.NoError(t, err)
				assert.True(t, string(src.Data) == string(onDisk), "the saved bytes differ from SnowLuma's (%d vs %d bytes)", len(onDisk), len(src.Data))
				assert.Equal(t, sha256Hex(src.Data), saved.SHA256)
				assert.Equal(t, int64(len(src.Data)), saved.Size)
				assert.Equal(t, tt.wantChunks, saved.Chunks)
				assert.Contains(t, got.Note, "MCP host")
				assert.Equal(t, []string{saved.FileName}, entries(t, dirs.download), "exactly one file, no partial file")
				dirs.assertOnlyInDownloadDir(t)

				sent := c.sent(t)
				require.Len(t, sent, 1, "one stream request")
				assert.Equal(t, tt.action, sent[0].Action)
				want := map[string]any{fake.Marker: sent[0].Marker}
				for k, v := range tt.params {
					want[k] = v
				}
				assert.JSONEq(t, string(mustJSON(t, want)), string(sent[0].Params), "params are sent as given")
			})
		})
	}
}

func TestUntrustedFileNamesStayInsideTheDownloadDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		remote string
	}{
		{"parent directory components", "../../x"},
		{"an absolute path", "/etc/passwd"},
		{"a hidden name", ".hidden"},
		{"the product's own partial prefix", partialPrefix + "evil"},
		{"both separators and a colon", `a/b\c:d.txt`},
		{"only dots", ".."},
		{"an empty name", ""},
		{"control characters", "evil\x00name\n.txt"},
		{"a name longer than the file system allows", strings.Repeat("é", 150) + ".txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t)
				s := start(t, version, env)
				download := func() savedResult {
					c := s.run(t, "invoke_action", "download_file_stream", map[string]any{"file": fake.FileHello}, fake.RenameMarker(tt.remote))
					require.False(t, c.res.IsError, c.res.Text)
					var got savedResult
					c.res.decodeResult(t, &got)
					return got
				}
				first := download()
				name := first.SavedFile.FileName
				assert.Equal(t, dirs.download, filepath.Dir(first.SavedFile.Path))
				assert.Equal(t, name, filepath.Base(first.SavedFile.Path))
				assert.NotContains(t, []string{"", ".", ".."}, name)
				assert.False(t, strings.HasPrefix(name, "."), "a saved file must not be hidden (or look partial): %q", name)
				assert.False(t, strings.ContainsAny(name, "/\\\x00\n"), "separators or control characters in %q", name)
				assert.LessOrEqual(t, len(name), 255, "the name must fit the file system")
				b, err := os.ReadFile(first.SavedFile.Path)
				require.NoError(t, err)
				assert.Equal(t, "hello world", string(b))

				// The same name again must not replace the first file.
				require.NoError(t, os.WriteFile(first.SavedFile.Path, []byte("kept by the user"), 0o600))
				second := download()
				assert.NotEqual(t, first.SavedFile.Path, second.SavedFile.Path, "an existing file is never overwritten")
				assert.Equal(t, dirs.download, filepath.Dir(second.SavedFile.Path))
				b, err = os.ReadFile(first.SavedFile.Path)
				require.NoError(t, err)
				assert.Equal(t, "kept by the user", string(b))
				b, err = os.ReadFile(second.SavedFile.Path)
				require.NoError(t, err)
				assert.Equal(t, "hello world", string(b))

				assert.Len(t, entries(t, dirs.download), 2)
				assertNoPartial(t, dirs.download)
				dirs.assertOnlyInDownloadDir(t)
			})
		})
	}
}
