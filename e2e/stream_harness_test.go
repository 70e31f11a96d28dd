package e2e

// Shared plumbing for the stream tests (BASE-7): a write-mode environment
// with the test's own download dir and upload root, and checks on what lies
// on disk, so that every stream test can say "exact bytes, nothing partial,
// nothing elsewhere" in one line. Result shapes are in stream_shapes_test.go.

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partialPrefix names the product's files in progress (see BASE-7: no
// partial file may survive a failure).
const partialPrefix = ".snowluma-partial-"

// streamDirs are one test's directories on the MCP host. The download dir
// sits two levels below root, so that a server file name like "../../x"
// that escaped it would still land inside root, where walkFiles finds it.
type streamDirs struct {
	root     string
	download string
	upload   string
}

// streamEnv is write mode with the test's own SNOWLUMA_MCP_DOWNLOAD_DIR and
// SNOWLUMA_MCP_UPLOAD_ROOT, plus kv.
func streamEnv(t testing.TB, kv ...string) (map[string]string, streamDirs) {
	t.Helper()
	root := t.TempDir()
	d := streamDirs{root: root, download: filepath.Join(root, "a", "b", "downloads"), upload: filepath.Join(root, "uploads")}
	require.NoError(t, os.MkdirAll(d.download, 0o700))
	require.NoError(t, os.MkdirAll(d.upload, 0o700))
	env := with(writeEnv(), "SNOWLUMA_MCP_DOWNLOAD_DIR", d.download, "SNOWLUMA_MCP_UPLOAD_ROOT", d.upload)
	return with(env, kv...), d
}

// entries lists the names in dir, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// assertNoPartial checks that no partial file is left in dir.
func assertNoPartial(t *testing.T, dir string) {
	t.Helper()
	for _, n := range entries(t, dir) {
		assert.False(t, strings.HasPrefix(n, partialPrefix), "a partial file was left behind: %s", n)
	}
}

// walkFiles lists every non-directory under root except the upload root,
// relative to root.
func (d streamDirs) walkFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(d.root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && path == d.upload {
			return filepath.SkipDir
		}
		if !e.IsDir() {
			rel, err := filepath.Rel(d.root, path)
			require.NoError(t, err)
			out = append(out, rel)
		}
		return nil
	}))
	return out
}

// assertOnlyInDownloadDir checks that every file under root (outside the
// upload root) lies directly in the download dir.
func (d streamDirs) assertOnlyInDownloadDir(t *testing.T) {
	t.Helper()
	for _, rel := range d.walkFiles(t) {
		assert.Equal(t, d.download, filepath.Dir(filepath.Join(d.root, rel)), "a file was written outside the download dir: %s", rel)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// writeFile writes data to dir/name and returns the path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// randomBytes returns n random bytes (content no code could guess).
func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return b
}
