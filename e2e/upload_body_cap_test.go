package e2e

// SnowLuma's body cap (issue 8, item 3; readRequestBody in SnowLuma's
// packages/onebot/src/network/http-server-adapter.ts): at the largest
// SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES the server accepts, and with a file name
// whose JSON escaping is as long as it gets, every upload request still
// fits in the 2 MiB SnowLuma reads. The fake tears down any larger request
// without an answer, as SnowLuma v1.11.1 was observed to do.

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
)

func TestLargestAcceptedChunkFitsSnowLumasBodyCap(t *testing.T) {
	t.Parallel()
	chunk := upload.MaxChunkBytes
	tests := []struct {
		name string
		file string
	}{
		// 255 bytes is the longest file name Linux allows; a control
		// character takes six bytes once JSON-escaped.
		{"a name of control characters", strings.Repeat("\x01", 251) + ".bin"},
		{"a name of characters escaped for HTML", strings.Repeat("<&>", 83) + ".txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", strconv.Itoa(chunk))
				data := randomBytes(t, 2*chunk+100)
				file := writeFile(t, dirs.upload, tt.file, data)
				s := start(t, version, env)
				r, traceID := s.uploadCall(t, file)
				require.False(t, r.IsError, "%s: %s", r.Diag.Kind, r.Diag.Message)
				var got uploadResult
				r.decodeResult(t, &got)
				uploaded, ok := snow.Uploaded(got.Upload.StreamID)
				require.True(t, ok, "SnowLuma has the merged file")
				assert.True(t, string(data) == string(uploaded), "SnowLuma reassembled different bytes")

				sent := snow.ByTrace(traceID)
				require.Len(t, sent, 4, "three chunks and the completion")
				for i, q := range sent {
					assert.LessOrEqual(t, len(q.Body), 2<<20, "request %d fits SnowLuma's body cap", i+1)
				}
				name := paramsOf(t, sent[0]).Filename
				require.NotNil(t, name)
				encoded, err := json.Marshal(*name)
				require.NoError(t, err)
				assert.LessOrEqual(t, len(encoded), upload.MaxNameJSON, "the name is shortened by its encoded length")
				assert.True(t, strings.HasSuffix(*name, tt.file[len(tt.file)-4:]), "the extension survives")
			})
		})
	}
}
