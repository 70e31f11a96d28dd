package e2e

// Stream gates (BASE-4, BASE-5, BASE-7): every stream action needs write
// mode and invoke_action. query_action refuses each of them as the wrong
// tool, in read and write mode alike, and read mode cannot run them at
// all; in every case nothing reaches SnowLuma and nothing is written.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// streamCalls are a valid params set for every stream action.
var streamCalls = []struct {
	action string
	params map[string]any
}{
	{"test_download_stream", map[string]any{}},
	{"download_file_stream", map[string]any{"file": fake.FileHello}},
	{"download_file_image_stream", map[string]any{"file": fake.ImageID}},
	{"download_file_record_stream", map[string]any{"file": fake.VoiceID}},
	{fake.UploadAction, map[string]any{"stream_id": "gate", "total_chunks": 1}},
}

func TestQueryActionRefusesStreamActions(t *testing.T) {
	t.Parallel()
	modes := []struct {
		name string
		env  func() map[string]string
	}{{"read mode", readEnv}, {"write mode", writeEnv}}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				dl := t.TempDir()
				s := start(t, version, with(mode.env(), "SNOWLUMA_MCP_DOWNLOAD_DIR", dl))
				for _, sc := range streamCalls {
					c := s.run(t, "query_action", sc.action, sc.params, "")
					assert.True(t, c.res.IsError, sc.action)
					assert.Equal(t, "wrong_tool", c.res.Diag.Kind, sc.action)
					assert.Contains(t, c.res.Diag.Message, sc.action)
					assert.Contains(t, c.res.Diag.Message, "invoke_action")
					c.assertNothingSent(t)
				}
				assert.Empty(t, entries(t, dl), "nothing is downloaded")
			})
		})
	}
}

func TestReadModeCannotRunStreams(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		dl := t.TempDir()
		s := start(t, version, with(readEnv(), "SNOWLUMA_MCP_DOWNLOAD_DIR", dl))
		require.NotContains(t, s.toolNames(), "invoke_action")
		for _, sc := range streamCalls {
			traceID, tp := newTrace(t)
			tag := newTag(t)
			params := map[string]any{fake.Marker: "tag:" + tag}
			for k, v := range sc.params {
				params[k] = v
			}
			res, err := s.callRaw(testCtx(t), "invoke_action", map[string]any{"action": sc.action, "params": params},
				map[string]any{"traceparent": tp})
			assert.True(t, err != nil || (res != nil && res.IsError), "%s must be refused in read mode", sc.action)
			assert.Empty(t, snow.ByTrace(traceID), sc.action)
			assert.Empty(t, snow.ByTag(tag), sc.action)
		}
		assert.Empty(t, entries(t, dl), "nothing is downloaded")
	})
}
