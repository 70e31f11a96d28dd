package e2e

// A started binary whose every output byte is kept: stdout is copied to a
// buffer before the SDK client reads it, and drained to the end even after
// the client has stopped reading, so a test can search all the process
// wrote (stdout, stderr, and files in its directories) once it has exited.

import (
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// captured is a server whose output is recorded in full.
type captured struct {
	*server
	stdout *syncBuffer
	exited chan struct{}
	drain  chan struct{}
	err    error
}

// startCaptured is start with all of stdout recorded.
func startCaptured(t *testing.T, version string, vars map[string]string) *captured {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = environ(vars)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, pw, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdout = pw
	require.NoError(t, cmd.Start())
	require.NoError(t, pw.Close())
	c := &captured{stdout: &syncBuffer{}, exited: make(chan struct{}), drain: make(chan struct{})}
	toClient, fromServer := io.Pipe()
	go func() {
		defer close(c.drain)
		defer out.Close()
		buf := make([]byte, 64<<10)
		clientGone := false
		for {
			n, err := out.Read(buf)
			if n > 0 {
				_, _ = c.stdout.Write(buf[:n])
				if !clientGone {
					_, werr := fromServer.Write(buf[:n])
					clientGone = werr != nil
				}
			}
			if err != nil {
				_ = fromServer.Close()
				return
			}
		}
	}()
	go func() {
		c.err = cmd.Wait()
		close(c.exited)
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "snowluma-e2e", Version: "1.0.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: stdin}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err, "connect; stderr:\n%s", stderr)
	c.server = &server{version: version, session: cs, stderr: stderr, tools: map[string]*mcp.Tool{}}
	t.Cleanup(func() { c.finish(t) })
	res, err := cs.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	for _, tool := range res.Tools {
		c.tools[tool.Name] = tool
	}
	return c
}

// finish ends the session, waits for the process to exit and for the last
// byte of its stdout, and requires a clean exit.
func (c *captured) finish(t *testing.T) {
	t.Helper()
	c.close()
	select {
	case <-c.exited:
	case <-testCtx(t).Done():
		require.FailNow(t, "the binary did not exit after stdin closed")
	}
	<-c.drain
	assert.NoError(t, c.err, "the binary must exit cleanly; stderr:\n%s", c.stderr)
}

// assertNowhere fails if any of words occurs in anything the process
// wrote: stdout, stderr, or a file under dirs. Failure messages name the
// place, never quote the bytes around it.
func (c *captured) assertNowhere(t *testing.T, dirs []string, words map[string]string) {
	t.Helper()
	places := map[string]string{"stdout": c.stdout.Raw(), "stderr": c.stderr.Raw()}
	files := 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			places[path] = string(b)
			return nil
		})
		if !os.IsNotExist(err) {
			require.NoError(t, err)
		}
	}
	for name, word := range words {
		for place, text := range places {
			assert.False(t, strings.Contains(text, word), "%s's words leaked into %s", name, place)
		}
	}
	t.Logf("searched stdout (%d bytes), stderr (%d bytes) and %d files", len(places["stdout"]), len(places["stderr"]), files)
}
