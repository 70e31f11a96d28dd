package task

// The store's own costs, measured never asserted (issue 11 item 7):
//
//	go test -run '^$' -bench . -benchtime 200x ./task

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkTaskWrites is what a task adds on disk: the durable record
// before work starts, then the result and the final record, each an
// atomic write with its fsyncs.
func BenchmarkTaskWrites(b *testing.B) {
	s, _, err := Open(filepath.Join(b.TempDir(), "tasks"), testScope, nil, nil)
	require.NoError(b, err)
	defer s.Close()
	body := []byte(`{"resultType":"complete","content":[{"type":"text","text":"` + strings.Repeat("x", 900) + `"}]}`)
	for b.Loop() {
		r, err := s.Create("invoke_action_background", "download_file_stream")
		require.NoError(b, err)
		_, err = s.Complete(r.ID, body, "completed")
		require.NoError(b, err)
	}
}

// BenchmarkOpen10k loads a directory of 10,000 finished tasks whose result
// bodies are 64 KiB each: opening reads only the small records.
func BenchmarkOpen10k(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "tasks")
	s, _, err := Open(dir, testScope, nil, nil)
	require.NoError(b, err)
	seed, err := s.Create("invoke_action_background", "download_file_stream")
	require.NoError(b, err)
	body := make([]byte, 64<<10)
	seed, err = s.Complete(seed.ID, body, "completed")
	require.NoError(b, err)
	rec, err := os.ReadFile(s.path(seed.ID, "json"))
	require.NoError(b, err)
	require.NoError(b, s.Close())
	for i := range 9_999 {
		id := strings.Repeat("0", 24) + hex8(i)
		require.NoError(b, os.WriteFile(filepath.Join(dir, "tasks", id+".json"), []byte(strings.Replace(string(rec), seed.ID, id, 1)), 0o600))
		require.NoError(b, os.WriteFile(filepath.Join(dir, "tasks", id+".result"), body, 0o600))
	}
	for b.Loop() {
		s, _, err := Open(dir, testScope, nil, nil)
		require.NoError(b, err)
		require.NoError(b, s.Close())
	}
}

// BenchmarkPage10k is list_tasks' first page on a directory of 10,000
// finished tasks that other servers share: each page reads the directory
// again for tasks they created, and reads no finished record twice.
func BenchmarkPage10k(b *testing.B) {
	s := store10k(b)
	defer s.Close()
	for b.Loop() {
		_, _, err := s.Page(nil, 50)
		require.NoError(b, err)
	}
}

// BenchmarkGetAnotherServersWorkingTask is tasks/get of a task that
// another live server runs: a read of its record and a probe of its
// owner's lock, every time.
func BenchmarkGetAnotherServersWorkingTask(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "tasks")
	owner, _, err := Open(dir, testScope, nil, nil)
	require.NoError(b, err)
	defer owner.Close()
	r, err := owner.Create("invoke_action_background", "download_file_stream")
	require.NoError(b, err)
	reader, _, err := Open(dir, testScope, nil, nil)
	require.NoError(b, err)
	defer reader.Close()
	for b.Loop() {
		got, err := reader.Get(r.ID)
		require.NoError(b, err)
		require.Equal(b, Working, got.Status)
	}
}

// store10k opens a store of 10,000 finished tasks.
func store10k(b *testing.B) *Store {
	dir := filepath.Join(b.TempDir(), "tasks")
	s, _, err := Open(dir, testScope, nil, nil)
	require.NoError(b, err)
	seed, err := s.Create("invoke_action_background", "download_file_stream")
	require.NoError(b, err)
	seed, err = s.Complete(seed.ID, []byte(`{"resultType":"complete"}`), "completed")
	require.NoError(b, err)
	rec, err := os.ReadFile(s.path(seed.ID, "json"))
	require.NoError(b, err)
	require.NoError(b, s.Close())
	for i := range 9_999 {
		id := strings.Repeat("0", 24) + hex8(i)
		require.NoError(b, os.WriteFile(filepath.Join(dir, "tasks", id+".json"), []byte(strings.Replace(string(rec), seed.ID, id, 1)), 0o600))
		require.NoError(b, os.WriteFile(filepath.Join(dir, "tasks", id+".result"), []byte(`{"resultType":"complete"}`), 0o600))
	}
	s, _, err = Open(dir, testScope, nil, nil)
	require.NoError(b, err)
	return s
}

func hex8(i int) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 8)
	for k := 7; k >= 0; k-- {
		out[k] = digits[i&15]
		i >>= 4
	}
	return string(out)
}
