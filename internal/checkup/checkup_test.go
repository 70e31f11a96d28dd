package checkup

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snowluma answers the three probes with the given data.
func snowluma(t *testing.T, data map[string]string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct{ Action string }
		_ = json.Unmarshal(b, &req)
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":` + data[req.Action] + `}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func TestTheAccountAndVersionItems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  string
		version string
		item    string
		want    Status
		says    string
		ok      bool
	}{
		{"the catalog's release with a build suffix", `{"online":true,"good":true}`, "1.11.1-node", "version", OK, "as the bundled catalog", true},
		{"another release is a warning", `{"online":true,"good":true}`, "1.12.0", "version", Warn, "some actions may differ", true},
		{"an offline account fails", `{"online":false,"good":false}`, "1.11.1", "account", Fail, "offline", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			url := snowluma(t, map[string]string{
				"get_login_info":   `{"user_id":10001,"nickname":"SnowBot"}`,
				"get_status":       tt.status,
				"get_version_info": `{"app_name":"SnowLuma","app_version":"` + tt.version + `"}`,
			})
			env := map[string]string{"SNOWLUMA_MCP_ENDPOINT": url}
			r := Run(context.Background(), Deps{Getenv: func(k string) string { return env[k] }, CatalogVersion: catalogVersion})
			assert.Equal(t, tt.ok, r.OK)
			var found bool
			for _, it := range r.Items {
				if it.Name == tt.item {
					found = true
					assert.Equal(t, tt.want, it.Status)
					assert.Contains(t, it.Detail, tt.says)
				}
			}
			assert.True(t, found, "no %s item", tt.item)
		})
	}
}

// TestAMisspeltSettingFailsNamingWhatWasMeant: a variable close to a
// known name leaves what it meant off (lockdown, here), so the check
// fails; one close to none is only worth a warning.
func TestAMisspeltSettingFailsNamingWhatWasMeant(t *testing.T) {
	t.Parallel()
	const secret = "10001,hunter2"
	tests := []struct {
		name      string
		env       map[string]string
		stray     string
		ok        bool
		status    Status
		fix       string
		malformed bool
	}{
		{"beside a sound configuration the check fails", map[string]string{"SNOWLUMA_MCP_TRUSTED_USER": secret}, "SNOWLUMA_MCP_TRUSTED_USER",
			false, Fail, "did you mean SNOWLUMA_MCP_TRUSTED_USERS?", false},
		{"beside a malformed setting it is named too", map[string]string{"SNOWLUMA_MCP_TRUSTED_USER": secret, "SNOWLUMA_MCP_MODE": "writ"}, "SNOWLUMA_MCP_TRUSTED_USER",
			false, Fail, "did you mean SNOWLUMA_MCP_TRUSTED_USERS?", true},
		{"a name close to none is a warning", map[string]string{"SNOWLUMA_MCP_COLOUR_SCHEME": secret}, "SNOWLUMA_MCP_COLOUR_SCHEME",
			true, Warn, "remove it or correct its name", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var environ []string
			for k, v := range tt.env {
				environ = append(environ, k+"="+v)
			}
			r := Run(context.Background(), Deps{Getenv: func(k string) string { return tt.env[k] }, Environ: environ, CatalogVersion: catalogVersion})
			assert.Equal(t, tt.ok, r.OK)
			assert.Equal(t, tt.malformed, r.Malformed != "")
			var found bool
			for _, it := range r.Items {
				if it.Name == "unknown variable" {
					found = true
					assert.Equal(t, tt.status, it.Status)
					assert.Contains(t, it.Detail, tt.stray+" is not a variable this server reads")
					assert.Contains(t, it.Fix, tt.fix)
				}
			}
			assert.True(t, found, "no unknown variable item: %+v", r.Items)
			var out strings.Builder
			r.Write(&out)
			require.NoError(t, r.WriteJSON(&out))
			assert.NotContains(t, out.String(), "hunter2", "the value is never shown")
		})
	}
}

// TestTheModeIsSaidBeforeWhatItLeavesOut: a setting the mode ignores is
// a warning under the line that says the mode, not above it.
func TestTheModeIsSaidBeforeWhatItLeavesOut(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SNOWLUMA_MCP_TASK_DIR": t.TempDir()}
	r := Run(context.Background(), Deps{Getenv: func(k string) string { return env[k] }, CatalogVersion: catalogVersion})
	var out strings.Builder
	r.Write(&out)
	mode := strings.Index(out.String(), "ok    configuration  docs mode")
	ignored := strings.Index(out.String(), "SNOWLUMA_MCP_TASK_DIR is ignored")
	require.NotEqual(t, -1, mode, out.String())
	require.NotEqual(t, -1, ignored, out.String())
	assert.Less(t, mode, ignored, out.String())
}

// TestTheVerdictCountsInWords: "1 item failed", "2 items failed".
func TestTheVerdictCountsInWords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		failed int
		says   string
	}{{1, "1 item failed:"}, {2, "2 items failed:"}} {
		r := &Report{}
		for range tt.failed {
			r.add(Item{Name: "endpoint", Status: Fail, Detail: "x"})
		}
		r.finish()
		var out strings.Builder
		r.Write(&out)
		assert.Contains(t, out.String(), tt.says)
	}
}

// catalogVersion stands for the release the bundled catalog describes
// (cmd passes catalog.Version): the fake SnowLuma answers with it, with a
// build suffix, or with another release.
const catalogVersion = "1.11.1"
