package task

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzDecodeRecord feeds arbitrary bytes to the record decoder: it must
// never panic, and whatever it accepts must survive a round trip.
func FuzzDecodeRecord(f *testing.F) {
	const id = "0123456789abcdef0123456789abcdef"
	f.Add(id, []byte(`{"v":1,"taskId":"`+id+`","tool":"invoke_action_background","action":"download_file_stream","status":"working","statusMessage":"running","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:00Z"}`))
	f.Add(id, []byte(`{"v":1,"taskId":"`+id+`","tool":"t","action":"a","status":"completed","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","result":{"size":2,"sha256":"44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"}}`))
	f.Add(id, []byte(`{"v":1,"taskId":"`+id+`","tool":"t","action":"a","status":"failed","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","error":{"code":-32603,"message":"x"}}`))
	f.Add(id, []byte(`{"v":2,"taskId":"`+id+`","tool":"t","action":"a","status":"working","createdAt":"2026-12-01T10:00:00Z","lastUpdatedAt":"2026-12-01T10:00:01Z","partialFile":"/dl/.snowluma-partial-1","uploadStream":"mcp_0a1b"}`))
	f.Add(id, []byte(`{"v":1}`))
	f.Add(id, []byte(`null`))
	f.Fuzz(func(t *testing.T, id string, data []byte) {
		r, err := DecodeRecord(id, data)
		if err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			return
		}
		again, err := r.encode()
		require.NoError(t, err)
		r2, err := DecodeRecord(id, again)
		require.NoError(t, err)
		require.Equal(t, r.ID, r2.ID)
		require.Equal(t, r.Status, r2.Status)
		require.Equal(t, r.PartialFile, r2.PartialFile)
		require.Equal(t, r.UploadStream, r2.UploadStream)
	})
}
