package fake_test

// The rules of SnowLuma's HTTP server adapter
// (packages/onebot/src/network/http-server-adapter.ts), one row per rule,
// compared byte for byte: key order, the missing "message" field and the
// exact wordings are part of what the product must cope with.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

const (
	unauthorized = `{"status":"failed","retcode":1401,"data":null,"wording":"unauthorized"}`
	statusOK     = `{"status":"ok","retcode":0,"data":{"online":true,"good":true}}`
	loginOK      = `{"status":"ok","retcode":0,"data":{"user_id":10001,"nickname":"SnowBot"}}`
)

func TestAdapterFollowsSnowLumaWireRules(t *testing.T) {
	t.Parallel()
	bearer := "Bearer " + token
	tests := []struct {
		name        string
		method      string
		path        string
		contentType string
		auth        string
		body        string
		wantStatus  int
		wantBody    string // exact bytes
		wantPrefix  string // when the body is only checked at its start
	}{
		{name: "health probe answers online", method: "GET", path: "/", auth: bearer,
			wantStatus: 200, wantBody: `{"status":"ok","retcode":0,"data":{"online":true}}`},
		{name: "health probe needs auth", method: "GET", path: "/",
			wantStatus: 401, wantBody: unauthorized},
		{name: "lower-case bearer is refused", method: "GET", path: "/", auth: "bearer " + token,
			wantStatus: 401, wantBody: unauthorized},
		{name: "other schemes are refused", method: "GET", path: "/", auth: "Token " + token,
			wantStatus: 401, wantBody: unauthorized},
		{name: "a bare token is refused", method: "GET", path: "/", auth: token,
			wantStatus: 401, wantBody: unauthorized},
		{name: "a wrong token is refused", method: "POST", path: "/", contentType: "application/json", auth: "Bearer nope",
			body: `{"action":"get_status"}`, wantStatus: 401, wantBody: unauthorized},
		{name: "access_token query works on GET", method: "GET", path: "/get_status?access_token=" + token,
			wantStatus: 200, wantBody: statusOK},
		{name: "access_token query works on POST", method: "POST", path: "/?access_token=" + token,
			contentType: "application/json", body: `{"action":"get_status"}`, wantStatus: 200, wantBody: statusOK},
		{name: "auth comes before the method check", method: "PUT", path: "/",
			wantStatus: 401, wantBody: unauthorized},
		{name: "other methods get 405 with retcode 1400", method: "PUT", path: "/", auth: bearer,
			wantStatus: 405, wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"method not allowed"}`},
		{name: "path action works with an empty body", method: "POST", path: "/get_status", auth: bearer,
			wantStatus: 200, wantBody: statusOK},
		{name: "path action wins over body action", method: "POST", path: "/get_login_info", contentType: "application/json",
			auth: bearer, body: `{"action":"get_status"}`, wantStatus: 200, wantBody: loginOK},
		{name: "GET query params are JSON-parsed", method: "GET", path: "/get_msg?message_id=-1559550018", auth: bearer,
			wantStatus: 200, wantPrefix: `{"status":"ok","retcode":0,"data":{"time":1764664100,"message_type":"group","sub_type":"normal","message_id":-1559550018,`},
		{name: "body.params object is the params", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `{"action":"get_msg","params":{"message_id":2137770485}}`, wantStatus: 200,
			wantPrefix: `{"status":"ok","retcode":0,"data":{"time":1764664201,"message_type":"group","sub_type":"normal","message_id":2137770485,`},
		{name: "a flat body is the params", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `{"action":"get_msg","message_id":-1264852461}`, wantStatus: 200,
			wantPrefix: `{"status":"ok","retcode":0,"data":{"time":1764664202,"message_type":"private","sub_type":"friend","message_id":-1264852461,`},
		{name: "array params fall back to the whole body", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `{"action":"get_msg","params":[1],"message_id":-1559550018}`, wantStatus: 200,
			wantPrefix: `{"status":"ok","retcode":0,"data":{"time":1764664100,`},
		{name: "invalid JSON with application/json is a 400", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `{"action":`, wantStatus: 400, wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"bad request: invalid json"}`},
		{name: "invalid JSON without content type falls back to form fields", method: "POST", path: "/", auth: bearer,
			body: `action=get_status`, wantStatus: 200, wantBody: statusOK},
		{name: "form fields are JSON-parsed and echo is extracted", method: "POST", path: "/", auth: bearer,
			contentType: "application/x-www-form-urlencoded", body: `action=get_msg&message_id=-1559550018&echo=12345`,
			wantStatus: 200, wantPrefix: `{"status":"ok","retcode":0,"data":{"time":1764664100,`},
		{name: "unsupported content type is a 400", method: "POST", path: "/", contentType: "text/plain", auth: bearer,
			body: `x`, wantStatus: 400, wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"bad request: unsupported content-type: text/plain"}`},
		{name: "an empty body without path action misses the action", method: "POST", path: "/", contentType: "application/json",
			auth: bearer, body: "  \n", wantStatus: 400, wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"bad request: missing action"}`},
		{name: "a JSON array body is ignored", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `[{"action":"get_status"}]`, wantStatus: 400, wantBody: `{"status":"failed","retcode":1400,"data":null,"wording":"bad request: missing action"}`},
		{name: "an unknown action is HTTP 200 retcode 1404", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `{"action":"no_such_action"}`, wantStatus: 200, wantBody: `{"status":"failed","retcode":1404,"data":null,"wording":"unknown action"}`},
		{name: "a nested path action is simply unknown", method: "POST", path: "/a/b", auth: bearer,
			wantStatus: 200, wantBody: `{"status":"failed","retcode":1404,"data":null,"wording":"unknown action"}`},
		{name: "echo is copied into the envelope", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `{"action":"get_status","echo":"e-1"}`, wantStatus: 200, wantBody: `{"status":"ok","retcode":0,"data":{"online":true,"good":true},"echo":"e-1"}`},
		{name: "a null echo is echoed as null", method: "POST", path: "/", contentType: "application/json", auth: bearer,
			body: `{"action":"no_such_action","echo":null}`, wantStatus: 200, wantBody: `{"status":"failed","retcode":1404,"data":null,"wording":"unknown action","echo":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := call(t, context.Background(), srv, tt.method, tt.path, tt.contentType, tt.auth, tt.body, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, r.status)
			assert.Equal(t, "application/json; charset=utf-8", r.header.Get("Content-Type"))
			if tt.wantPrefix != "" {
				assert.True(t, strings.HasPrefix(r.body, tt.wantPrefix), "body %s", r.body)
			} else {
				assert.Equal(t, tt.wantBody, r.body)
			}
			var env map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(r.body), &env))
			assert.NotContains(t, env, "message", "non-stream envelopes carry wording, never message")
		})
	}
}

func TestFormEchoIsJSONParsed(t *testing.T) {
	t.Parallel()
	r, err := call(t, context.Background(), srv, http.MethodPost, "/", "application/x-www-form-urlencoded", "Bearer "+token,
		`action=get_status&echo=12345`, nil)
	require.NoError(t, err)
	assert.Equal(t, `{"status":"ok","retcode":0,"data":{"online":true,"good":true},"echo":12345}`, r.body)
}

func TestConfiguredPathIsMatchedAndOthersAre404(t *testing.T) {
	t.Parallel()
	f := fake.New(fake.Options{Token: token, Path: "/onebot/"})
	t.Cleanup(f.Close)
	tests := []struct {
		name       string
		path       string
		body       string
		wantStatus int
		wantBody   string
	}{
		{"the path itself has no path action", "/onebot", `{"action":"get_status"}`, 200, statusOK},
		{"a trailing slash is the same path", "/onebot/", `{"action":"get_status"}`, 200, statusOK},
		{"the remainder is the path action", "/onebot/get_login_info", `{}`, 200, loginOK},
		{"a path outside is 404 retcode 1404", "/elsewhere", `{"action":"get_status"}`, 404,
			`{"status":"failed","retcode":1404,"data":null,"wording":"not found"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := strings.TrimSuffix(f.URL(), "/onebot")
			req, err := http.NewRequest(http.MethodPost, base+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, resp.StatusCode)
			assert.Equal(t, tt.wantBody, string(b))
		})
	}
}

func TestOversizedBodyGetsNoResponse(t *testing.T) {
	t.Parallel()
	body := `{"action":"get_status","pad":"` + strings.Repeat("x", 2<<20) + `"}`
	_, err := call(t, context.Background(), srv, http.MethodPost, "/", "application/json", "Bearer "+token, body, nil)
	require.Error(t, err, "SnowLuma tears the socket down instead of answering")
}
