package e2e

// Protocol details at the wire (PROTO-1..3, CACHE-1): modern replies carry
// resultType, cache hints and server metadata exactly as the cache table
// says; legacy replies carry none of the modern-only fields; an
// unsupported revision is refused before anything runs.

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

const serverInfoKey = "io.modelcontextprotocol/serverInfo"

// metaOf returns the _meta object of a result's fields.
func metaOf(t *testing.T, f map[string]json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	m := map[string]json.RawMessage{}
	if raw, ok := f["_meta"]; ok {
		require.NoError(t, json.Unmarshal(raw, &m))
	}
	return m
}

func TestModernRepliesCarryCacheHintsExactly(t *testing.T) {
	t.Parallel()
	r := startRaw(t, modern, readEnv())
	tests := []struct {
		name      string
		method    string
		params    map[string]any
		wantTTL   string // "" when the reply must carry no cache hints
		wantScope string
	}{
		{"tools/list", "tools/list", nil, "300000", `"private"`},
		{"resources/list", "resources/list", nil, "300000", `"private"`},
		{"resources/templates/list", "resources/templates/list", nil, "300000", `"public"`},
		{"resources/read of the catalog", "resources/read", map[string]any{"uri": catalogURI}, "300000", `"public"`},
		{"resources/read of one action", "resources/read", map[string]any{"uri": catalogURI + "/get_status"}, "300000", `"public"`},
		{"tools/call of a docs tool", "tools/call", map[string]any{"name": "list_categories", "arguments": map[string]any{}}, "", ""},
		{"tools/call of an execution tool", "tools/call", map[string]any{"name": "query_action", "arguments": map[string]any{"action": "get_status"}}, "", ""},
		{"tools/call that fails", "tools/call", map[string]any{"name": "get_action", "arguments": map[string]any{"name": "nope"}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := r.request(tt.method, r.params(tt.params, nil))
			require.Nil(t, m.Error, "%s", m)
			f := m.fields(t)
			assert.Equal(t, `"complete"`, string(f["resultType"]), "modern results carry resultType")
			assert.Contains(t, metaOf(t, f), serverInfoKey, "modern results carry server metadata")
			if tt.wantTTL == "" {
				assert.NotContains(t, f, "ttlMs", "tool calls carry no cache hints")
				assert.NotContains(t, f, "cacheScope", "tool calls carry no cache hints")
				return
			}
			assert.Equal(t, tt.wantTTL, string(f["ttlMs"]))
			assert.Equal(t, tt.wantScope, string(f["cacheScope"]))
		})
	}
}

func TestLegacyRepliesCarryNoModernFields(t *testing.T) {
	t.Parallel()
	r := startRaw(t, legacy, readEnv())
	init := r.request("initialize", map[string]any{
		"protocolVersion": legacy, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "snowluma-e2e-raw", "version": "1.0.0"},
	})
	require.Nil(t, init.Error, "%s", init)
	r.notify("notifications/initialized", nil)
	replies := map[string]rawMessage{"initialize": init}
	for name, req := range map[string]struct {
		method string
		params map[string]any
	}{
		"tools/list":                    {"tools/list", nil},
		"resources/list":                {"resources/list", nil},
		"resources/templates/list":      {"resources/templates/list", nil},
		"resources/read of the catalog": {"resources/read", map[string]any{"uri": catalogURI}},
		"resources/read of one action":  {"resources/read", map[string]any{"uri": catalogURI + "/get_ptt_text"}},
		"tools/call":                    {"tools/call", map[string]any{"name": "query_action", "arguments": map[string]any{"action": "get_status"}}},
		"tools/call that fails":         {"tools/call", map[string]any{"name": "get_action", "arguments": map[string]any{"name": "nope"}}},
		"ping":                          {"ping", nil},
	} {
		replies[name] = r.request(req.method, req.params)
	}
	for name, m := range replies {
		t.Run(name, func(t *testing.T) {
			require.Nil(t, m.Error, "%s", m)
			f := m.fields(t)
			for _, modernOnly := range []string{"ttlMs", "cacheScope", "resultType"} {
				assert.NotContains(t, f, modernOnly, "legacy replies carry no %s: %s", modernOnly, m)
			}
			assert.NotContains(t, metaOf(t, f), serverInfoKey, "legacy replies carry no modern _meta keys")
		})
	}
}

func TestUnsupportedRevisionIsRefusedBeforeAnythingRuns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		requested string
	}{
		{"a future revision", "2099-01-01"},
		{"a revision between the known ones", "2026-08-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := startRaw(t, modern, writeEnv())
			traceID, tp := newTrace(t)
			tag := newTag(t)
			meta := modernMeta(tt.requested)
			meta["traceparent"] = tp
			m := r.request("tools/call", map[string]any{
				"name":      "invoke_action",
				"arguments": map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID, "message": "never", fake.Marker: "tag:" + tag}},
				"_meta":     meta,
			})
			require.NotNil(t, m.Error, "%s", m)
			assert.Equal(t, -32022, m.Error.Code)
			var data struct {
				Supported []string `json:"supported"`
				Requested string   `json:"requested"`
			}
			require.NoError(t, json.Unmarshal(m.Error.Data, &data), "%s", m)
			assert.Contains(t, data.Supported, modern)
			assert.Contains(t, data.Supported, legacy)
			assert.Equal(t, tt.requested, data.Requested)
			assert.Empty(t, snow.ByTrace(traceID), "nothing may reach SnowLuma")
			assert.Empty(t, snow.ByTag(tag), "nothing may reach SnowLuma")

			ok := r.callTool("query_action", map[string]any{"action": "get_status"}, nil)
			require.Nil(t, ok.Error, "the session keeps serving supported requests: %s", ok)
			_, diag := structured(t, ok)
			assert.Equal(t, "success", diag.Outcome)
			assert.NotContains(t, r.stderr.String(), "tool=invoke_action", "the refused call never reached the tool")
		})
	}
}

func TestDiscoverAdvertisesBothGenerations(t *testing.T) {
	t.Parallel()
	r := startRaw(t, modern, docsEnv())
	m := r.request("server/discover", r.params(nil, nil))
	require.Nil(t, m.Error, "%s", m)
	var res struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	require.NoError(t, json.Unmarshal(m.Result, &res))
	assert.Contains(t, res.SupportedVersions, modern)
	assert.Contains(t, res.SupportedVersions, legacy)
}
