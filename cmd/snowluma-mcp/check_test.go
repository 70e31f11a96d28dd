package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckExitsAsUsageSays: each exit code of check comes with the case
// usage gives for it. A malformed optional setting (a relative download
// folder) turns off only its service: 1, not the 2 of a setting that
// leaves the server only explaining.
func TestCheckExitsAsUsageSays(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct{ Action string }
		_ = json.Unmarshal(b, &req)
		data := map[string]string{
			"get_login_info":   `{"user_id":10001,"nickname":"SnowBot"}`,
			"get_status":       `{"online":true,"good":true}`,
			"get_version_info": `{"app_name":"SnowLuma","app_version":"1.11.1"}`,
		}[req.Action]
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":` + data + `}`))
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name     string
		variable string
		value    string
		code     int
		usage    string
	}{
		{"a sound write configuration", "", "", 0, "0 when the server would run as configured"},
		{"a relative download folder turns downloads off", "SNOWLUMA_MCP_DOWNLOAD_DIR", "downloads", 1, "1 when it would run with less than\nyou set otherwise (a service a setting turns off, such as a relative\ndownload folder"},
		{"a malformed mode leaves only the documentation tools", "SNOWLUMA_MCP_MODE", "wirte", 2, "2 when a\nmalformed mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Each check gets its own state folder: two checks running at
			// once opened the same one, which Windows (under Wine) refused
			// once with a sharing violation.
			state := t.TempDir()
			require.NoError(t, os.Chmod(state, 0o700))
			env := map[string]string{
				"SNOWLUMA_MCP_ENDPOINT": srv.URL + "/", "SNOWLUMA_MCP_MODE": "write",
				"SNOWLUMA_MCP_STATE_DIR": state, "SNOWLUMA_MCP_DOWNLOAD_DIR": t.TempDir(),
			}
			if tt.variable != "" {
				env[tt.variable] = tt.value
			}
			var stdout, stderr strings.Builder
			code := runCheck(false, &stdout, &stderr, func(k string) string { return env[k] }, nil)
			assert.Equal(t, tt.code, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			assert.Contains(t, usage, tt.usage)
		})
	}
}
