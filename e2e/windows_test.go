//go:build wine

package e2e

// The Windows binary under Wine (make test-windows; PLAT-2): the same
// client and the same fake SnowLuma on 127.0.0.1 as the rest of the suite,
// with the server given Windows paths. Wine shows Linux's / as drive Z:, so
// a test directory /tmp/x is Z:\tmp\x to the server.
//
// What Wine cannot show: it runs every program as one account and keeps an
// access list only as Unix mode bits, so that another Windows account is
// really kept out of the task directory is Windows' part; here the test
// checks what Wine can: the bits it made of the list the server asked for,
// and the refusal of a directory it reports open to Everyone. Nor does
// Wine 8 make symlinks or junctions for a Windows program; a directory
// symlink made on the Linux side stands in for a junction (the Windows
// side sees a plain directory, as Go sees a junction). Nor Ctrl-C: Wine
// ends a process on SIGINT by itself with exit code 0, with or without
// Go's handler (a test of it passed with the handler removed), so no test
// here could fail for the right reason; the clean stop on Ctrl-C and
// Ctrl-Break rests on Go delivering both as os.Interrupt. Nor the delay
// with which Windows may drop a killed process's file lock: Wine drops
// it at once (the other server settles the task on its first read), so
// the test only allows for the delay. Nor a virus scanner or indexer
// holding a store file open without FILE_SHARE_DELETE, which the store
// waits out for up to a second; Wine did show the sharing violation of
// a move in progress (internal/task's binding race under Wine).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// winPath is how the Windows binary names a path of this machine.
func winPath(p string) string { return `Z:` + strings.ReplaceAll(p, "/", `\`) }

// winStreamEnv is streamEnv with the directories in Windows form.
func winStreamEnv(t *testing.T, kv ...string) (map[string]string, streamDirs) {
	t.Helper()
	env, dirs := streamEnv(t, kv...)
	return with(env, "SNOWLUMA_MCP_DOWNLOAD_DIR", winPath(dirs.download), "SNOWLUMA_MCP_UPLOAD_ROOT", winPath(dirs.upload)), dirs
}

func TestWindowsBinaryServesDocsReadsAndWrites(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		doc := s.call(t, "get_action", map[string]any{"name": "send_group_msg"}, nil)
		require.False(t, doc.IsError, doc.Text)
		assert.Contains(t, string(doc.Result), `"inputSchema"`)

		read := s.run(t, "query_action", "get_login_info", nil, "")
		require.False(t, read.res.IsError, read.res.Text)
		assert.Equal(t, "success", read.res.Diag.Outcome)
		assert.Contains(t, string(read.res.Result), `"nickname":"SnowBot"`)
		require.Len(t, read.sent(t), 1)

		write := s.run(t, "invoke_action", "send_group_msg", map[string]any{"group_id": 20001, "message": "hello from Windows"}, "")
		require.False(t, write.res.IsError, write.res.Text)
		assert.Equal(t, "success", write.res.Diag.Outcome)
		sent := write.sent(t)
		require.Len(t, sent, 1)
		assert.Equal(t, "send_group_msg", sent[0].Action)
		assert.Contains(t, string(sent[0].Params), "hello from Windows")
	})
}

func TestWindowsBinaryDownloadsIntoAWindowsPath(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, dirs := winStreamEnv(t)
		s := start(t, version, env)
		src, ok := fake.StreamFileAt(fake.FileSeed)
		require.True(t, ok)
		c := s.run(t, "invoke_action", "download_file_stream", map[string]any{"file": fake.FileSeed}, "")
		require.False(t, c.res.IsError, c.res.Text)
		var got savedResult
		c.res.decodeResult(t, &got)
		assert.Equal(t, winPath(dirs.download)+`\seed-150k.bin`, got.SavedFile.Path, "a Windows path on the MCP host")
		onDisk, err := os.ReadFile(filepath.Join(dirs.download, "seed-150k.bin"))
		require.NoError(t, err)
		assert.True(t, string(src.Data) == string(onDisk), "the saved bytes differ from SnowLuma's")
		assert.Equal(t, sha256Hex(src.Data), got.SavedFile.SHA256)
		assert.Equal(t, []string{"seed-150k.bin"}, entries(t, dirs.download), "exactly one file, no partial file")
	})
}

func TestWindowsBinaryUploadRefusesEscapes(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, dirs := winStreamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "4096")
		data := randomBytes(t, 10000)
		file := writeFile(t, dirs.upload, "sub/report.bin", data)
		outside := writeFile(t, dirs.root, "outside/secret.txt", []byte("secret"))
		require.NoError(t, os.Symlink(filepath.Dir(outside), filepath.Join(dirs.upload, "junction")))
		s := start(t, version, env)

		for _, input := range []string{winPath(file), `sub\report.bin`, strings.ToUpper(winPath(file))} {
			r, _ := s.uploadCall(t, input)
			require.False(t, r.IsError, "%s: %s", input, r.Text)
			var got uploadResult
			r.decodeResult(t, &got)
			uploaded, ok := snow.Uploaded(got.Upload.StreamID)
			require.True(t, ok, input)
			assert.True(t, string(data) == string(uploaded), "%s: SnowLuma got other bytes", input)
		}

		refusals := []struct{ input, why string }{
			{`sub\..\..\outside\secret.txt`, `".." component`},
			{`sub/../../outside/secret.txt`, `".." component`},
			{winPath(outside), "outside the upload root"},
			{`junction\secret.txt`, "outside the upload root"},
			{`\\?\` + winPath(file), "network or device path"},
			{`\\127.0.0.1\c$\secret.txt`, "network or device path"},
			{`Z:sub\report.bin`, "relative to a drive's current directory"},
			{`sub\report.bin::$DATA`, "alternate data stream"},
			{`sub\report.bin:hidden`, "alternate data stream"},
			{`NUL`, "Windows device"},
			{`sub\con.txt`, "Windows device"},
			{`COM1`, "Windows device"},
			{`sub\report.bin.`, "ends in a dot or a space"},
		}
		for _, rf := range refusals {
			r, traceID := s.uploadCall(t, rf.input)
			assert.True(t, r.IsError, "%s must be refused", rf.input)
			assert.Equal(t, "failed", r.Diag.Outcome, rf.input)
			assert.Contains(t, r.Diag.Message, rf.why, rf.input)
			assert.Empty(t, snow.ByTrace(traceID), "%s: nothing may reach SnowLuma", rf.input)
		}
	})
}

// TestWindowsBinaryTellsTheUploadRootFromASiblingGoFoldsIntoIt: Go folds
// U+212A KELVIN SIGN to k where NTFS does not, so a sibling of the root
// "kit" spelled "\u212Ait" is another directory and its file is refused.
// Under Wine this shows the server's logic (directory identity), not NTFS's
// case rules.
func TestWindowsBinaryTellsTheUploadRootFromASiblingGoFoldsIntoIt(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, dirs := winStreamEnv(t)
		root := filepath.Join(dirs.root, "kit")
		inside := writeFile(t, root, "ok.bin", randomBytes(t, 100))
		secret := writeFile(t, dirs.root, "\u212Ait/secret.bin", []byte("secret"))
		s := start(t, version, with(env, "SNOWLUMA_MCP_UPLOAD_ROOT", winPath(root)))

		r, _ := s.uploadCall(t, winPath(inside))
		require.False(t, r.IsError, r.Text)
		r, traceID := s.uploadCall(t, winPath(secret))
		assert.True(t, r.IsError, "the sibling's file must be refused")
		assert.Contains(t, r.Diag.Message, "outside the upload root")
		assert.Empty(t, snow.ByTrace(traceID), "nothing may reach SnowLuma")
	})
}

// TestWindowsBinaryRunsBackgroundTasksAndSharesItsDirectory: a task runs
// to its end; a second server on the same directory starts (LockFileEx
// locks per server, not on the whole directory), reads the first one's
// task, and runs one of its own; when the second is killed mid-transfer
// the first settles that task on reading it (Wine drops a killed
// process's locks as Windows does); and a directory Wine reports open to
// Everyone is refused.
func TestWindowsBinaryRunsBackgroundTasksAndSharesItsDirectory(t *testing.T) {
	t.Parallel()
	env, dirs, taskDir := taskEnv(t)
	env = with(env, "SNOWLUMA_MCP_DOWNLOAD_DIR", winPath(dirs.download), "SNOWLUMA_MCP_UPLOAD_ROOT", winPath(dirs.upload),
		"SNOWLUMA_MCP_TASK_DIR", winPath(taskDir))
	r := startRaw(t, modern, env)
	h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
	done := awaitTask(t, r, h.TaskID)
	require.Equal(t, "completed", done.Status, "%+v", done)
	var result struct {
		StructuredContent struct {
			Result savedResult `json:"result"`
		} `json:"structuredContent"`
	}
	require.NoError(t, json.Unmarshal(done.Result, &result))
	assert.Equal(t, winPath(dirs.download)+`\hello.txt`, result.StructuredContent.Result.SavedFile.Path)

	second := startRaw(t, modern, env)
	seen := decodeTask(t, getTask(second, h.TaskID))
	assert.Equal(t, "completed", seen.Status, "the second server reads the first one's task")
	assert.JSONEq(t, string(done.Result), string(seen.Result))
	tag := newTag(t)
	slow := decodeTask(t, startTask(second, "download_file_stream", map[string]any{"file": fake.FileSeed, "chunk_size": 10000}, tag, "slowframes:2000"))
	waitFor(t, "the second server's download under way", func() bool { return partialWithData(t, dirs.download) })
	assert.Equal(t, "working", decodeTask(t, getTask(r, slow.TaskID)).Status, "a live server's task is left to it")
	second.kill()
	// Windows may release a dead process's lock a moment later, so the
	// first server may still see the owner alive on its first read.
	var lost wireTask
	reads := 0
	waitFor(t, "the killed server's task settled", func() bool {
		reads++
		lost = decodeTask(t, getTask(r, slow.TaskID))
		return lost.Status != "working"
	})
	t.Logf("settled on read %d after the kill", reads)
	assert.Equal(t, "failed", lost.Status)
	require.NotNil(t, lost.Error)
	assert.Contains(t, lost.Error.Message, "remote outcome unknown")
	assert.Contains(t, lost.Error.Message, "partial download file has since been removed")
	assertNoPartial(t, dirs.download)
	assert.Len(t, snow.ByTag(tag), 1, "never replayed")

	// Wine turns the owner-only list the server asked for into Unix mode
	// bits: nothing may be left for "other" (Everyone).
	require.NoError(t, filepath.Walk(taskDir, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		assert.Zero(t, info.Mode().Perm()&0o007, "%s is open to others: %v", p, info.Mode())
		return nil
	}))

	// A folder open to others that holds anything is refused: background
	// tasks are off, with the fix, and the server still starts.
	open := filepath.Join(t.TempDir(), "open")
	require.NoError(t, os.Mkdir(open, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(open, "planted"), nil, 0o644))
	out, err := command(with(env, "SNOWLUMA_MCP_TASK_DIR", winPath(open))).CombinedOutput()
	require.NoError(t, err, "no exit for a setting: %s", redact(string(out)))
	assert.Contains(t, string(out), "lets other accounts in (Everyone)")
	assert.Contains(t, string(out), "icacls")
	assert.Contains(t, string(out), "background tasks off")

	// An empty one of this user's is made private by the server.
	empty := filepath.Join(t.TempDir(), "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	out, err = command(with(env, "SNOWLUMA_MCP_TASK_DIR", winPath(empty))).CombinedOutput()
	require.NoError(t, err, redact(string(out)))
	assert.Contains(t, string(out), "made it private")
	st, err := os.Stat(empty)
	require.NoError(t, err)
	assert.Zero(t, st.Mode().Perm()&0o007, "nothing is left for other (Everyone): %v", st.Mode())
}

func TestWindowsBinarySubscribesToEvents(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		uri := s.subscribeEvents(t, map[string]any{"self_id": self})
		sc.Push(fake.GroupMessage(self, 20001, 30001, "hello from the fake"))
		p := s.awaitEvents(t, uri, 1)
		assert.Equal(t, []string{"hello from the fake"}, p.texts(t))
	})
}

// TestWindowsBinaryTakesCRLFAndStopsWhenStdinCloses: lines ending in \r\n,
// as Windows tools write them, are requests like any other, and closing
// stdin ends the process with exit code 0.
func TestWindowsBinaryTakesCRLFAndStopsWhenStdinCloses(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		r := rawSession(t, version, docsEnv())
		line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 900, "method": "tools/call",
			"params": r.params(map[string]any{"name": "list_categories", "arguments": map[string]any{}}, nil)})
		require.NoError(t, err)
		r.writeLine(string(line) + "\r")
		m := r.await(900)
		require.Nil(t, m.Error, "%s", m)
		assert.Contains(t, string(m.Result), "structuredContent")
		require.NoError(t, r.stdin.Close())
		assert.Equal(t, 0, r.waitExit(), "stderr:\n%s", r.stderr)
	})
}

// TestWindowsBinariesShareTheSendBudgets: two Windows servers of one
// account spend one budget through the state file (LockFileEx on its lock
// file, the state renamed into place with MoveFileEx), and the state
// survives their restart.
func TestWindowsBinariesShareTheSendBudgets(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	env := with(paceEnv("target=1+1/1h,account=50+1/10ms", "0"), "SNOWLUMA_MCP_STATE_DIR", winPath(dir))
	a, b := start(t, modern, env), start(t, modern, env)
	r, _ := a.sendNow(t, "send_group_msg", group(20003), nil)
	require.False(t, r.IsError, r.Text)
	r, tag := b.sendNow(t, "send_group_msg", group(20003), nil)
	require.True(t, r.IsError, "the first server's send spent the budget for both")
	assert.Equal(t, "rate_limited", r.Diag.Kind)
	assert.Empty(t, snow.ByTag(tag))
	assert.FileExists(t, filepath.Join(dir, fmt.Sprintf("budget-%d.json", self)), "kept by the account get_login_info names")
}
