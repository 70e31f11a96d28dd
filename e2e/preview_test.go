package e2e

// preview_message over the real binary (UI-1) and the MCP Apps capability
// rule (UI-2), on both generations: the same draft for every client, UI
// metadata and the ui:// resource only for clients that advertise MCP Apps.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

const panelURI = "ui://snowluma-mcp/message-preview.html"

// appsCaps is what an MCP Apps host declares.
func appsCaps() *mcp.ClientCapabilities {
	c := &mcp.ClientCapabilities{}
	c.AddExtension("io.modelcontextprotocol/ui", map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}})
	return c
}

type previewDraft struct {
	Characters int    `json:"characters"`
	Preview    string `json:"preview"`
	CanSend    bool   `json:"can_send"`
	Invoke     struct {
		Action string          `json:"action"`
		Params json.RawMessage `json:"params"`
	} `json:"invoke_action"`
}

func TestPreviewMessageBuildsADraftInEveryMode(t *testing.T) {
	t.Parallel()
	modes := []struct {
		name    string
		env     func() map[string]string
		canSend bool
	}{{"docs mode cannot send", docsEnv, false}, {"read mode cannot send", readEnv, false}, {"write mode can send", writeEnv, true}}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, m.env())
				traceID, tp := newTrace(t)
				r := s.call(t, "preview_message", map[string]any{
					"message_type": "private", "target_id": 9007199254740991, "text": "[CQ:face,id=1] hi", "reply_to": -7,
				}, mcp.Meta{"traceparent": tp})
				require.False(t, r.IsError, r.Text)
				var d previewDraft
				r.decodeResult(t, &d)
				assert.Equal(t, m.canSend, d.CanSend)
				assert.Equal(t, "send_private_msg", d.Invoke.Action)
				assert.JSONEq(t, `{"user_id":9007199254740991,"message":[{"type":"reply","data":{"id":"-7"}},{"type":"text","data":{"text":"[CQ:face,id=1] hi"}}]}`, string(d.Invoke.Params))
				assert.Equal(t, 17, d.Characters)
				assert.Contains(t, d.Preview, "17 characters")
				assert.NotContains(t, d.Preview, "[CQ:face,id=1] hi", "the text is carried once, in invoke_action's params")
				assert.Empty(t, snow.ByTrace(traceID), "a preview never contacts SnowLuma")
			})
		})
	}
}

func TestPreviewMessageRefusesBadDrafts(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		for _, args := range []map[string]any{
			{"message_type": "group", "target_id": 9007199254740992, "text": "x"},
			{"message_type": "group", "target_id": 1, "text": "x", "reply_to": 0},
			{"message_type": "group", "target_id": 1, "text": "x", "reply_to": 2147483648},
			{"message_type": "channel", "target_id": 1, "text": "x"},
			{"message_type": "group", "target_id": 1, "text": "   "},
		} {
			r := s.call(t, "preview_message", args, nil)
			assert.True(t, r.IsError, "%v was accepted", args)
			assert.Equal(t, "invalid_argument", r.Diag.Kind, "%v", args)
		}
	})
}

// TestPreviewedArgumentsSendThroughInvokeAction: the draft's arguments are
// exactly what invoke_action accepts, through every gate, and send once.
func TestPreviewedArgumentsSendThroughInvokeAction(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		var d previewDraft
		s.call(t, "preview_message", map[string]any{"message_type": "group", "target_id": fake.GroupID, "text": "hello", "reply_to": fake.SeedGroupPositive}, nil).decodeResult(t, &d)
		traceID, tp := newTrace(t)
		r := s.call(t, "invoke_action", map[string]any{"action": d.Invoke.Action, "params": d.Invoke.Params}, mcp.Meta{"traceparent": tp})
		require.False(t, r.IsError, r.Text)
		assert.Equal(t, "success", r.Diag.Outcome)
		reqs := snow.ByTrace(traceID)
		require.Len(t, reqs, 1)
		assert.Equal(t, "send_group_msg", reqs[0].Action)
		assert.JSONEq(t, string(d.Invoke.Params), string(reqs[0].Params))
	})
}

func TestAppsClientsAloneSeeThePanel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		caps   *mcp.ClientCapabilities
		seesUI bool
	}{
		{"an MCP Apps client sees the panel", appsCaps(), true},
		{"a plain client gets the same tool without UI metadata", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := startWith(t, version, readEnv(), &mcp.ClientOptions{Capabilities: tt.caps})
				tool := s.tools["preview_message"]
				require.NotNil(t, tool, "every client gets preview_message")
				res, err := s.session.ListResources(testCtx(t), nil)
				require.NoError(t, err)
				var uris []string
				for _, r := range res.Resources {
					uris = append(uris, r.URI)
				}
				if tt.seesUI {
					assert.Equal(t, map[string]any{"resourceUri": panelURI}, tool.Meta["ui"])
					assert.Contains(t, uris, panelURI)
					read, err := s.session.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: panelURI})
					require.NoError(t, err)
					assert.Equal(t, "text/html;profile=mcp-app", read.Contents[0].MIMEType)
					assert.Contains(t, read.Contents[0].Text, "<!doctype html>")
				} else {
					assert.NotContains(t, tool.Meta, "ui")
					assert.NotContains(t, tool.Meta, "ui/resourceUri")
					assert.NotContains(t, uris, panelURI)
				}
			})
		})
	}
}

// TestAppsCapabilityIsReadPerRequest: a modern client's capabilities come
// with each request, so one session can list with and without the panel;
// a legacy client declares them once, at initialize. The raw driver shows
// the exact wire, cache hints included.
func TestAppsCapabilityIsReadPerRequest(t *testing.T) {
	t.Parallel()
	apps := map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}}}
	hasUI := func(t *testing.T, m rawMessage) bool {
		t.Helper()
		require.Nil(t, m.Error, "%s", m)
		var res struct {
			Tools []struct {
				Name string         `json:"name"`
				Meta map[string]any `json:"_meta"`
			} `json:"tools"`
			CacheScope string `json:"cacheScope"`
		}
		require.NoError(t, json.Unmarshal(m.Result, &res))
		assert.Equal(t, "private", res.CacheScope, "the list varies with the client")
		for _, tl := range res.Tools {
			if tl.Name == "preview_message" {
				return tl.Meta["ui"] != nil
			}
		}
		require.FailNow(t, "no preview_message")
		return false
	}
	r := startRaw(t, modern, docsEnv())
	plain := r.request("tools/list", r.params(nil, nil))
	withApps := r.request("tools/list", r.params(nil, map[string]any{"io.modelcontextprotocol/clientCapabilities": apps}))
	assert.False(t, hasUI(t, plain), "a request without the extension gets no UI metadata")
	assert.True(t, hasUI(t, withApps), "a request with it does, in the same session")
	read := r.request("resources/read", r.params(map[string]any{"uri": panelURI}, map[string]any{"io.modelcontextprotocol/clientCapabilities": apps}))
	require.Nil(t, read.Error, "%s", read)
	f := read.fields(t)
	assert.JSONEq(t, `300000`, string(f["ttlMs"]))
	assert.JSONEq(t, `"public"`, string(f["cacheScope"]))

	l := startRaw(t, legacy, docsEnv())
	init := l.request("initialize", map[string]any{
		"protocolVersion": legacy, "capabilities": apps,
		"clientInfo": map[string]any{"name": "snowluma-e2e-raw", "version": "1.0.0"},
	})
	require.Nil(t, init.Error, "%s", init)
	l.notify("notifications/initialized", nil)
	m := l.request("tools/list", map[string]any{})
	require.Nil(t, m.Error, "%s", m)
	assert.Contains(t, string(m.Result), `"resourceUri":"`+panelURI+`"`, "a legacy client that declared MCP Apps at initialize gets the panel")
}

// TestPreviewMessageCarriesTheTextOnceAndBoundsIt: a text longer than a QQ
// message carries is refused naming the limit, and the longest one allowed
// appears once in the draft: once in structuredContent and once in the
// text block that mirrors it, never more (it used to be three times each).
func TestPreviewMessageCarriesTheTextOnceAndBoundsIt(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		r := rawSession(t, version, docsEnv())
		text := "长" + strings.Repeat("x", 4998) + "尾"
		m := r.callTool("preview_message", map[string]any{"message_type": "group", "target_id": 1, "text": text}, nil)
		res, diag := structured(t, m)
		require.Equal(t, "success", diag.Outcome, "%.300s", m)
		assert.Equal(t, 1, strings.Count(string(res), text), "structuredContent carries the text once")
		var out struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		require.NoError(t, json.Unmarshal(m.Result, &out))
		require.Len(t, out.Content, 1)
		assert.Equal(t, 1, strings.Count(out.Content[0].Text, text), "the text block carries it once")
		assert.Less(t, len(m.Line), 4*len(text), "the reply is the text twice plus the draft, not six times")

		m = r.callTool("preview_message", map[string]any{"message_type": "group", "target_id": 1, "text": text + "!"}, nil)
		res, diag = structured(t, m)
		assert.Equal(t, "null", string(res))
		assert.Equal(t, "invalid_argument", diag.Kind)
		assert.Contains(t, diag.Message, "text: maxLength violated: the string has 5001 characters and must have at most 5000")
		assert.Less(t, len(m.Line), 2000, "the refusal does not repeat the text")
	})
}
