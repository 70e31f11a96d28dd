package e2e

// JSON fidelity (RESULT-3): SnowLuma's envelope reaches the agent as it
// was sent. Read at the wire with the raw driver, because the SDK client
// decodes numbers into float64 and re-orders keys: negative message IDs,
// decimal-string sizes, data null versus {}, and the message_id 0
// sentinel must come through byte for byte in structuredContent.result,
// and the text block must be exactly the compact envelope.

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// rawCall runs one execution tool call at the wire, tagged and traced,
// and returns the wire message and the single request the fake saw.
func rawCall(t *testing.T, r *rawServer, tool, action string, params map[string]any) (rawMessage, fake.Request) {
	t.Helper()
	traceID, tp := newTrace(t)
	p := map[string]any{fake.Marker: "tag:" + newTag(t)}
	for k, v := range params {
		p[k] = v
	}
	m := r.callTool(tool, map[string]any{"action": action, "params": p}, map[string]any{"traceparent": tp})
	require.Nil(t, m.Error, "tools/call: %s", m)
	// The lockdown stage may ask for the account once, untagged, when a
	// result holds someone's words; the call's own request is the tagged one.
	var sent []fake.Request
	for _, q := range snow.ByTrace(traceID) {
		if !(q.Action == "get_login_info" && q.Marker == "") {
			sent = append(sent, q)
		}
	}
	require.Len(t, sent, 1)
	return m, sent[0]
}

// textOf returns the first text block of a raw tools/call result (the
// payload's; a business failure's verdict follows it).
func textOf(t *testing.T, m rawMessage) string {
	t.Helper()
	var body struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	require.NoError(t, json.Unmarshal(m.Result, &body))
	require.NotEmpty(t, body.Content)
	require.LessOrEqual(t, len(body.Content), 2)
	require.Equal(t, "text", body.Content[0].Type)
	return body.Content[0].Text
}

func TestEnvelopesPassThroughByteForByte(t *testing.T) {
	t.Parallel()
	// A forward anyone could have built, whose one node claims the account.
	forged := snow.Forward([]fake.Node{{UserID: fake.SelfID, Nick: "SnowBot", Content: json.RawMessage(`[{"type":"text","data":{"text":"claimed"}}]`)}})
	tests := []struct {
		name     string
		tool     string
		action   string
		params   map[string]any
		wantData string // the data member, exactly; "" when it is dynamic
		marked   string // the third-party marker spliced into the result, if any
		check    func(t *testing.T, data json.RawMessage)
	}{
		{name: "a negative message ID", tool: "query_action", action: "get_msg",
			params: map[string]any{"message_id": fake.SeedGroupNegative}, marked: `,"third_party":{"author":10002}`,
			check: func(t *testing.T, data json.RawMessage) {
				assert.Contains(t, string(data), `"message_id":-1559550018,"real_id":-1559550018,`)
			}},
		{name: "a forward node claiming the account", tool: "query_action", action: "get_forward_msg",
			params: map[string]any{"id": forged}, marked: `,"third_party":{"author":null,"claimed_author":10001}`,
			check: func(t *testing.T, data json.RawMessage) {
				assert.Contains(t, string(data), `"sender":{"user_id":10001,"nickname":"SnowBot"}`)
			}},
		{name: "a decimal-string file size", tool: "query_action", action: "get_file",
			params: map[string]any{"file": fake.KnownFile}, marked: `,"third_party":{"author":null}`,
			check: func(t *testing.T, data json.RawMessage) {
				assert.Contains(t, string(data), `"file_size":"`+fake.KnownFileSize+`"`)
			}},
		{name: "data {} stays an empty object", tool: "invoke_action", action: "set_group_sign",
			params: map[string]any{"group_id": fake.GroupID}, wantData: `{}`},
		{name: "data null stays null", tool: "invoke_action", action: "set_group_ban",
			params: map[string]any{"group_id": fake.GroupID, "user_id": fake.AliceID}, wantData: `null`},
		{name: "the message_id 0 sentinel", tool: "invoke_action", action: "upload_forward_msg",
			params: map[string]any{"messages": []any{map[string]any{"type": "node", "data": map[string]any{"user_id": fake.AliceID, "nickname": "Alice", "content": "hi"}}}},
			check: func(t *testing.T, data json.RawMessage) {
				assert.Contains(t, string(data), `"message_id":0`)
			}},
		{name: "a signed send receipt", tool: "invoke_action", action: "send_group_msg",
			params: map[string]any{"group_id": fake.GroupID, "message": "fidelity"},
			check: func(t *testing.T, data json.RawMessage) {
				assert.Regexp(t, `^\{"message_id":-?[1-9][0-9]*\}$`, string(data))
			}},
		{name: "non-ASCII text in an array", tool: "query_action", action: "get_group_list", marked: `,"third_party":{"author":null}`,
			check: func(t *testing.T, data json.RawMessage) {
				assert.Contains(t, string(data), `"group_name":"SnowLuma 测试群"`)
			}},
		{name: "a business failure envelope", tool: "query_action", action: "get_msg",
			params: map[string]any{"message_id": 5}, wantData: `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				r := rawSession(t, version, writeEnv())
				m, q := rawCall(t, r, tt.tool, tt.action, tt.params)
				result, diag := structured(t, m)
				assert.NotEqual(t, "unknown", diag.Outcome)

				got := unescapeHTML(string(result))
				if tt.marked != "" {
					assert.Contains(t, got, tt.marked, "a stranger's message is marked as third-party content")
				}
				assert.Equal(t, string(q.Response), strings.ReplaceAll(got, tt.marked, ""),
					"structuredContent.result must be SnowLuma's bytes, apart from the marking")
				data := q.Data()
				if tt.wantData != "" {
					assert.Equal(t, tt.wantData, string(data))
				}
				if tt.check != nil {
					tt.check(t, data)
				}
				var compact bytes.Buffer
				require.NoError(t, json.Compact(&compact, []byte(got)))
				assert.Equal(t, compact.String(), textOf(t, m), "the text block is the compact envelope, marking included")
			})
		})
	}
}

// unescapeHTML undoes the \u0026, \u003c and \u003e escapes that Go's
// json.Marshal adds inside strings. They are the same JSON value as the
// characters SnowLuma sent, so they are not counted as a change; every
// other byte (number spelling, key order, null, {}) must match.
func unescapeHTML(s string) string {
	return strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">").Replace(s)
}

func TestHTMLSignificantCharactersKeepTheirValue(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		r := rawSession(t, version, readEnv())
		m, q := rawCall(t, r, "query_action", "get_file", map[string]any{"file": fake.KnownFile})
		result, _ := structured(t, m)
		require.Contains(t, string(q.Response), "&rkey=", "the fake sends a raw ampersand, as JSON.stringify does")
		var sent, got struct {
			Data struct {
				URL string `json:"url"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(q.Response, &sent))
		require.NoError(t, json.Unmarshal(result, &got))
		assert.Equal(t, sent.Data.URL, got.Data.URL, "the URL's value is unchanged")
		assert.Contains(t, textOf(t, m), "&rkey=", "the text block keeps the character itself")
	})
}

func TestParamsReachSnowLumaUnchanged(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		r := rawSession(t, version, writeEnv())
		traceID, tp := newTrace(t)
		// Numbers a float64 round trip would damage, a negative ID, a
		// decimal with a trailing zero, non-ASCII text and nesting, inside
		// a segment's data: top-level keys SnowLuma does not read are
		// refused (catalog.Action.Unknown), what is inside a param is not
		// looked at.
		params := `{"group_id":123456789,"message":[{"type":"text","data":{"text":"中文 ok","big":12345678901234567891,` +
			`"neg":-1559550018,"ratio":1.50,"nested":{"a":[1,2,{"b":null}]}}}],"_fake":"tag:` + newTag(t) + `"}`
		m := r.callTool("invoke_action", json.RawMessage(`{"action":"send_group_msg","params":`+params+`}`),
			map[string]any{"traceparent": tp})
		_, diag := structured(t, m)
		assert.Equal(t, "success", diag.Outcome, "%s", m)
		sent := snow.ByTrace(traceID)
		require.Len(t, sent, 1)
		var body map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(sent[0].Body, &body))
		assert.Equal(t, `"send_group_msg"`, string(body["action"]))
		assert.Equal(t, params, string(body["params"]), "params are forwarded byte for byte")
	})
}
