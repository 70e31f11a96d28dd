package setup

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/task"
)

// BenchmarkDecide is what the one reading of the settings adds to a start
// (and to `check`) in write mode with a task folder already bound to the
// configuration: the folder checks, and for check the binding's digest.
func BenchmarkDecide(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "tasks")
	env := map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:3000/",
		"SNOWLUMA_MCP_TOKEN": "t", "SNOWLUMA_MCP_TASK_DIR": dir, "SNOWLUMA_MCP_STATE_DIR": filepath.Join(b.TempDir(), "state")}
	st, _, err := task.Open(dir, task.Scope{Mode: "write", Endpoint: "http://127.0.0.1:3000/", Token: "t"}, time.Now, nil)
	require.NoError(b, err)
	require.NoError(b, st.Close())
	for _, fix := range []bool{true, false} {
		name := "check"
		if fix {
			name = "server"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cfg := Decide(Env{Getenv: getenv(env)}, fix)
				if len(cfg.Findings) != 0 {
					b.Fatal(cfg.Findings)
				}
			}
		})
	}
}
