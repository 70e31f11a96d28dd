package e2e

// The era of a request (issue 8 item 5): a legacy session stays legacy. A
// client whose initialize asks for 2026-07-28 or a newer, unknown revision
// is negotiated to the newest legacy revision and then served exactly like
// any legacy client: no resultType, and elicitation/create rather than
// input_required. A stray server/discover (it carries modern _meta, so it
// is answered as the modern request it is) changes nothing about the
// session, before or after initialize.

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestALegacySessionStaysLegacy(t *testing.T) {
	t.Parallel()
	discover := func(t *testing.T, r *rawServer) {
		m := r.request("server/discover", map[string]any{"_meta": modernMeta(modern)})
		require.Nil(t, m.Error, "a discover with modern _meta is answered: %s", m)
		var res struct {
			SupportedVersions []string `json:"supportedVersions"`
		}
		require.NoError(t, json.Unmarshal(m.Result, &res))
		assert.Contains(t, res.SupportedVersions, legacy)
	}
	tests := []struct {
		name       string
		requested  string
		negotiated string
		before     func(t *testing.T, r *rawServer) // before initialize
		after      func(t *testing.T, r *rawServer) // after the handshake
	}{
		{"asking for 2026-07-28 in initialize", modern, legacy, nil, nil},
		{"asking for an unknown future revision in initialize", "2099-01-01", legacy, nil, nil},
		{"after a stray server/discover", legacy, legacy, nil, discover},
		{"after a server/discover probe before initialize", legacy, legacy, discover, nil},
		{"asking for 2025-11-25 (control)", legacy, legacy, nil, nil},
		{"asking for an older revision it supports (control)", "2025-06-18", "2025-06-18", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := startRaw(t, legacy, writeEnv())
			if tt.before != nil {
				tt.before(t, r)
			}
			init := r.request("initialize", map[string]any{
				"protocolVersion": tt.requested,
				"capabilities":    map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
				"clientInfo":      map[string]any{"name": "snowluma-e2e-raw", "version": "1.0.0"},
			})
			require.Nil(t, init.Error, "%s", init)
			var res struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			require.NoError(t, json.Unmarshal(init.Result, &res))
			assert.Equal(t, tt.negotiated, res.ProtocolVersion)
			r.notify("notifications/initialized", nil)
			if tt.after != nil {
				tt.after(t, r)
			}

			plain := r.request("tools/call", map[string]any{"name": "list_categories", "arguments": map[string]any{}})
			require.Nil(t, plain.Error, "%s", plain)
			assert.False(t, has(plain.fields(t), "resultType"), "legacy tool results carry no resultType: %s", plain)

			asked, result := callAskingLegacy(t, r, newTag(t))
			assert.Equal(t, 1, asked, "the form arrives as elicitation/create")
			f := result.fields(t)
			assert.False(t, has(f, "resultType"), "%s", result)
			assert.False(t, has(f, "inputRequests"), "%s", result)
		})
	}
}

// has reports whether a result has the field, without printing the whole
// result on failure.
func has(fields map[string]json.RawMessage, key string) bool {
	_, ok := fields[key]
	return ok
}

// callAskingLegacy calls a tool that needs input, declines every
// elicitation/create the server sends, and returns how many it sent and
// the call's final response.
func callAskingLegacy(t *testing.T, r *rawServer, tag string) (asked int, result rawMessage) {
	t.Helper()
	id := r.send("tools/call", map[string]any{"name": "invoke_action_with_input", "arguments": map[string]any{
		"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID, fake.Marker: "tag:" + tag}}})
	for {
		m := r.next()
		switch {
		case m.Method == "elicitation/create":
			asked++
			r.writeLine(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"decline"}}`, m.ID))
		case m.Method == "" && string(m.ID) == fmt.Sprint(id):
			require.Nil(t, m.Error, "%s", m)
			return asked, m
		}
	}
}

func TestAModernProbeLeavesModernCallsModern(t *testing.T) {
	t.Parallel()
	r := startRaw(t, modern, writeEnv())
	d := r.request("server/discover", r.params(nil, nil))
	require.Nil(t, d.Error, "%s", d)
	meta := modernMeta(modern)
	meta["io.modelcontextprotocol/clientCapabilities"] = map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	m := r.request("tools/call", map[string]any{"name": "invoke_action_with_input", "_meta": meta, "arguments": map[string]any{
		"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID, fake.Marker: "tag:" + newTag(t)}}})
	require.Nil(t, m.Error, "%s", m)
	f := m.fields(t)
	assert.JSONEq(t, `"input_required"`, string(f["resultType"]), "%s", m)
	assert.Contains(t, f, "inputRequests")
}
