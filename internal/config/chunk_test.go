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
// Only a size that is too large is blamed on SnowLuma's body cap: zero, a
// negative size or a value that is not a number is simply not a size.
func TestUploadChunkBytesStaysUnderSnowLumaBodyCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		value     string
		want      int
		refuse    bool
		blamesCap bool
	}{
		{"accepts the largest chunk whose request fits", strconv.Itoa(upload.MaxChunkBytes), upload.MaxChunkBytes, false, false},
		{"accepts one byte", "1", 1, false, false},
		{"uses the default when unset", "", 524288, false, false},
		{"refuses one byte more, blaming the body cap", strconv.Itoa(upload.MaxChunkBytes + 1), 0, true, true},
		{"refuses 1.5 MiB, whose request overflows the cap", "1572864", 0, true, true},
		{"refuses zero as no size, not as too large", "0", 0, true, false},
		{"refuses a value that is not a number as no size", "1.5MiB", 0, true, false},
		{"refuses a negative size as no size", "-1", 0, true, false},
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
			assert.NotContains(t, err.Error(), " "+tt.value+" ", "the given value is not echoed")
			if tt.blamesCap {
				assert.Contains(t, err.Error(), "body cap", "a size that is too large is explained by SnowLuma's body cap")
			} else {
				assert.Contains(t, err.Error(), "must be a whole number of bytes from 1 to", "the message says what a size is")
				assert.NotContains(t, err.Error(), "body cap", "a size that is not too large is not blamed on the body cap")
			}
		})
	}
}
