package e2e

// get_runtime_info's stream settings (RT-1, BASE-1): in write mode it
// reports the effective file, quota, stream, timeout and chunk limits, the
// download dir, the upload root and whether automatic upload is enabled,
// whether they come from the environment or from the defaults.

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type streamLimits struct {
	MaxFileBytes           int64   `json:"max_file_bytes"`
	DownloadQuotaBytes     int64   `json:"download_quota_bytes"`
	MaxStreams             int     `json:"max_streams"`
	StreamConnectTimeoutMS int64   `json:"stream_connect_timeout_ms"`
	StreamIdleTimeoutMS    int64   `json:"stream_idle_timeout_ms"`
	UploadChunkBytes       int     `json:"upload_chunk_bytes"`
	DownloadDir            string  `json:"download_dir"`
	UploadRoot             *string `json:"upload_root"`
	UploadEnabled          *bool   `json:"upload_enabled"`
}

func TestRuntimeInfoReportsStreamLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  func(t *testing.T) (map[string]string, streamLimits)
	}{
		{"configured limits and an upload root", func(t *testing.T) (map[string]string, streamLimits) {
			env, dirs := streamEnv(t,
				"SNOWLUMA_MCP_MAX_FILE_BYTES", "123456",
				"SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", "654321",
				"SNOWLUMA_MCP_MAX_STREAMS", "3",
				"SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS", "4321",
				"SNOWLUMA_MCP_STREAM_IDLE_TIMEOUT_MS", "8765",
				"SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "2048")
			on := true
			return env, streamLimits{123456, 654321, 3, 4321, 8765, 2048, dirs.download, &dirs.upload, &on}
		}},
		{"the defaults without an upload root", func(*testing.T) (map[string]string, streamLimits) {
			off := false
			return writeEnv(), streamLimits{1 << 30, 4 << 30, 4, 30000, 60000, 524288,
				filepath.Join(home, ".cache", "snowluma-mcp", "downloads"), nil, &off}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, want := tt.env(t)
				s := start(t, version, env)
				r := s.call(t, "get_runtime_info", nil, nil)
				require.False(t, r.IsError, r.Text)
				var info runtimeInfo
				r.decodeResult(t, &info)
				require.Equal(t, "write", info.Mode)
				var got streamLimits
				require.NoError(t, json.Unmarshal(info.Transport, &got))
				require.NotNil(t, got.UploadEnabled, "upload_enabled is reported")
				assert.Equal(t, want, got)
				assertNoEndpoint(t, string(r.Result))
			})
		})
	}
}
