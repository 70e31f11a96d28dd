package e2e

// list_tasks cursors (TASK-3) are taken only when this server process
// issued them: a forged "<time> <id>" cursor, however plausible, is refused
// as invalid_argument, and never answers an empty page that would tell the
// agent there are no tasks.

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestListTasksTakesOnlyCursorsItIssued(t *testing.T) {
	t.Parallel()
	env, _, _ := taskEnv(t)
	r := startRaw(t, modern, env)
	var ids []string
	for range 2 {
		h := decodeTask(t, startTask(r, "download_file_stream", map[string]any{"file": fake.FileHello}, newTag(t), ""))
		awaitTask(t, r, h.TaskID)
		ids = append(ids, h.TaskID)
	}
	first, _ := listTasks(t, r, map[string]any{"limit": 1})
	require.NotEmpty(t, first.NextCursor)
	second, diag := listTasks(t, r, map[string]any{"limit": 1, "cursor": first.NextCursor})
	require.Equal(t, "success", diag.Outcome, "an issued cursor is taken")
	require.Len(t, second.Tasks, 1)

	plain := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	now := time.Now().UTC().Format(time.RFC3339Nano)
	payload, sig, ok := strings.Cut(first.NextCursor, ".")
	require.True(t, ok, "an issued cursor is sealed: %s", first.NextCursor)
	forged := []struct{ name, cursor string }{
		{"a year-0001 cursor that would read as an empty last page", plain("0001-01-01T00:00:00Z x")},
		{"a path as the id", plain(now + " ../../x")},
		{"a real task's position, unsealed", plain(now + " " + ids[0])},
		{"an issued cursor's payload under another signature", payload + "." + plain(strings.Repeat("x", 32))},
		{"another position under an issued cursor's signature", plain("0001-01-01T00:00:00Z "+ids[0]) + "." + sig},
	}
	for _, f := range forged {
		t.Run(f.name, func(t *testing.T) {
			page, diag := listTasks(t, r, map[string]any{"cursor": f.cursor})
			assert.Equal(t, "invalid_argument", diag.Kind)
			assert.Contains(t, diag.Message, "is not a nextCursor this server process returned")
			assert.Contains(t, diag.Message, "omit it to start from the newest task")
			assert.Empty(t, page.Tasks)
		})
	}
}
