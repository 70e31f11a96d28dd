package e2e

// A cancelled upload waits for the chunk in flight before its reset
// (issue 20 item 13), on the synchronous path and both generations.
// SnowLuma finishes a request whose body it has read even after the client
// left (the fake's lagupload), so a reset sent at once would be overtaken
// by the chunk, which would create the stream again.

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestACancelledUploadResetsOnlyAfterTheChunkInFlight(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1000")
		s := start(t, version, env)
		tag := newTag(t)
		file := writeFile(t, dirs.upload, "a[_fake=lagupload:2,tag:"+tag+"].bin", randomBytes(t, 10000))
		ctx, cancel := context.WithCancel(testCtx(t))
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := s.callRaw(ctx, "invoke_action", map[string]any{"action": "upload_file_stream",
				"execution": map[string]any{"input_file": file}}, mcp.Meta{})
			done <- err
		}()
		waitFor(t, "the second chunk at SnowLuma", func() bool { return len(snow.ByTag(tag)) >= 2 })
		cancel()
		require.Error(t, <-done, "the client call ends with its context")
		waitFor(t, "the reset, after SnowLuma finished every request", func() bool {
			return len(snow.ByTag(tag)) == 3 && finished(tag)
		})
		id, reqs := uploadRequests(t, tag)
		assert.Nil(t, reqs[0].Reset)
		assert.Nil(t, reqs[1].Reset)
		assert.True(t, reqs[2].isReset(), "the reset is the last request")
		assert.False(t, snow.UploadOpen(id), "SnowLuma keeps no stream: the chunk in flight did not outlive the reset")
	})
}
