package e2e

// Params of the wrong type (issue 20 item 16): a non-string taskId, tool
// name or resource URI is answered -32602 with a short message naming the
// field, never with the SDK's decoding dump, which quoted every byte of the
// params back (1 MiB in, 1 MiB of error out). The session goes on.

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParamsOfTheWrongTypeAreNamedNotEchoed(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("p", 1<<20)
	tests := []struct {
		name   string
		method string
		params map[string]any
		says   string
	}{
		{"a numeric taskId", "tasks/get", map[string]any{"taskId": 7, "pad": pad}, "tasks/get: params.taskId must be a string, not number"},
		{"an array taskId", "tasks/cancel", map[string]any{"taskId": []string{pad}}, "tasks/cancel: params.taskId must be a string, not array"},
		{"a numeric tool name", "tools/call", map[string]any{"name": 5, "arguments": map[string]any{"pad": pad}}, "tools/call: params.name must be a string, not number"},
		{"a numeric resource URI", "resources/read", map[string]any{"uri": 12, "pad": pad}, "resources/read: params.uri must be a string, not number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, _, _ := taskEnv(t)
				r := rawSession(t, version, env)
				meta := map[string]any(nil)
				if version >= modern {
					meta = tasksMeta()
				}
				m := r.request(tt.method, r.params(tt.params, meta))
				require.NotNil(t, m.Error, "%.300s", m.Line)
				assert.Equal(t, -32602, m.Error.Code)
				assert.Equal(t, tt.says, m.Error.Message)
				assert.Less(t, len(m.Line), 400, "the answer repeats nothing the client sent")
				assert.NotContains(t, string(m.Line), "ppp")

				after := r.callTool("list_categories", map[string]any{}, nil)
				require.Nil(t, after.Error, "the session keeps serving: %s", after)
			})
		})
	}
}
