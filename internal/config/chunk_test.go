package config

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
)

// TestUploadChunkBytesStaysUnderSnowLumaBodyCap: no accepted chunk size can
// make a request SnowLuma tears down; larger ones stop the server with a
// message that names the variable and its limit, never the value given.
func TestUploadChunkBytesStaysUnderSnowLumaBodyCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		value  string
		want   int
		refuse bool
	}{
		{"accepts the largest chunk whose request fits", strconv.Itoa(upload.MaxChunkBytes), upload.MaxChunkBytes, false},
		{"uses the default when unset", "", 524288, false},
		{"refuses one byte more", strconv.Itoa(upload.MaxChunkBytes + 1), 0, true},
		{"refuses 1.5 MiB, whose request overflows the cap", "1572864", 0, true},
		{"refuses a value that is not a number", "1.5MiB", 0, true},
		{"refuses a negative size", "-1", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(map[string]string{"SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES": tt.value}))
			if !tt.refuse {
				require.NoError(t, err)
				assert.Equal(t, tt.want, cfg.UploadChunkBytes)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES")
			assert.Contains(t, err.Error(), strconv.Itoa(upload.MaxChunkBytes), "the message says what is accepted")
			assert.NotContains(t, err.Error(), tt.value, "the given value is not echoed")
		})
	}
}
