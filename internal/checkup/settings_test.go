package checkup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// TestATaskFolderSaysBackgroundTransfersNeedTheHost: a usable task folder
// is ok, and its line says what no setting gives, a host that declares
// the tasks extension, naming the hosts measured; an unset one is skipped
// without it.
func TestATaskFolderSaysBackgroundTransfersNeedTheHost(t *testing.T) {
	t.Parallel()
	base := map[string]string{"SNOWLUMA_MCP_MODE": "write", "SNOWLUMA_MCP_ENDPOINT": "http://127.0.0.1:3000/"}
	item := func(vars map[string]string) Item {
		cfg, _, err := config.Load(func(k string) string { return vars[k] })
		require.NoError(t, err)
		r := &Report{}
		r.directories(cfg)
		for _, it := range r.Items {
			if it.Name == "task dir" {
				return it
			}
		}
		require.Fail(t, "no task dir item")
		return Item{}
	}
	withDir := map[string]string{"SNOWLUMA_MCP_TASK_DIR": t.TempDir()}
	for k, v := range base {
		withDir[k] = v
	}
	set := item(withDir)
	assert.Equal(t, OK, set.Status)
	assert.Contains(t, set.Detail, "background transfers also need a host that declares the tasks extension")
	assert.Contains(t, set.Detail, "Claude Code 2.1.332, Gemini CLI 0.61.0 and Codex 0.171.0")
	unset := item(base)
	assert.Equal(t, Skip, unset.Status)
	assert.NotContains(t, unset.Detail, "tasks extension")
}
