package e2e

// Execution through query_action and invoke_action (BASE-4, BASE-5,
// BASE-6, RESULT-2): success, business failures as data, and every gate
// refusing before anything is sent.

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestQueryActionSucceeds(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, readEnv())
		c := s.run(t, "query_action", "get_status", nil, "")
		require.False(t, c.res.IsError, c.res.Text)
		assert.Equal(t, "success", c.res.Diag.Outcome)
		assert.Empty(t, c.res.Diag.Kind)

		sent := c.sent(t)
		require.Len(t, sent, 1)
		q := sent[0]
		assert.Equal(t, "POST", q.Method)
		assert.Equal(t, "/", q.Path)
		assert.Equal(t, "get_status", q.Action)
		assertBearer(t, q.Header, token)
		assert.Contains(t, q.Header.Get("Content-Type"), "application/json")
		assert.JSONEq(t, `{"_fake":"tag:`+c.tag+`"}`, string(q.Params), "params are sent as given")
		assert.JSONEq(t, string(q.Response), string(c.res.Result), "the envelope is passed through")
	})
}

func TestBusinessFailuresAreDataNotToolErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		tool     string
		action   string
		params   map[string]any
		envelope string // exactly what the fake answers
	}{
		{"an action failure (retcode 100)", "query_action", "get_msg", map[string]any{"message_id": 42},
			`{"status":"failed","retcode":100,"data":null,"wording":"message not found"}`},
		{"a parameter rule only SnowLuma knows (retcode 1400)", "invoke_action", "send_forward_msg",
			map[string]any{"group_id": 20001},
			`{"status":"failed","retcode":1400,"data":null,"wording":"message/messages is required"}`},
		{"an action the server does not know (retcode 1404)", "query_action", "get_group_info",
			map[string]any{"group_id": 20001},
			`{"status":"failed","retcode":1404,"data":null,"wording":"unknown action"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, writeEnv())
				c := s.run(t, tt.tool, tt.action, tt.params, "")
				assert.False(t, c.res.IsError, "a failed envelope is data")
				assert.Equal(t, "failed", c.res.Diag.Outcome)
				assert.Equal(t, "business_failure", c.res.Diag.Kind)
				var env struct {
					Wording string `json:"wording"`
				}
				require.NoError(t, json.Unmarshal([]byte(tt.envelope), &env))
				assert.Equal(t, env.Wording, c.res.Diag.Message, "the diagnostics quote SnowLuma's wording")
				assert.NotEmpty(t, c.res.Diag.NextStep)
				sent := c.sent(t)
				require.Len(t, sent, 1)
				assert.Equal(t, tt.envelope, string(sent[0].Response))
				assert.JSONEq(t, tt.envelope, string(c.res.Result), "the envelope is verbatim")
			})
		})
	}
}

func TestGatesRefuseBeforeSending(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		tool     string
		action   string
		params   map[string]any
		wantKind string
		wantText []string // substrings of the diagnostics message
	}{
		{"a write action through query_action points to invoke_action", "query_action", "send_group_msg",
			map[string]any{"group_id": fake.GroupID, "message": "hi"}, "wrong_tool", []string{"send_group_msg", "invoke_action"}},
		{"a stream action through query_action is refused", "query_action", "download_file_stream",
			map[string]any{"file": "x"}, "wrong_tool", []string{"download_file_stream", "invoke_action"}},
		{"an unknown action is refused by name in query_action", "query_action", "no_such_action",
			nil, "unknown_action", []string{"no_such_action"}},
		{"an unknown action is refused by name in invoke_action", "invoke_action", "definitely_not_an_action",
			nil, "unknown_action", []string{"definitely_not_an_action"}},
		{"message_id 0 fails the catalog schema", "query_action", "get_msg",
			map[string]any{"message_id": 0}, "invalid_argument", []string{"message_id"}},
		{"group_id 0 fails the catalog schema", "invoke_action", "send_group_msg",
			map[string]any{"group_id": 0, "message": "hi"}, "invalid_argument", []string{"group_id"}},
		{"a missing required param fails the catalog schema", "query_action", "get_msg",
			map[string]any{}, "invalid_argument", []string{"message_id"}},
		{"a wrongly typed param fails the catalog schema", "invoke_action", "delete_msg",
			map[string]any{"message_id": "soon"}, "invalid_argument", []string{"message_id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, writeEnv())
				c := s.run(t, tt.tool, tt.action, tt.params, "")
				assert.True(t, c.res.IsError)
				assert.Equal(t, tt.wantKind, c.res.Diag.Kind)
				assert.Equal(t, "failed", c.res.Diag.Outcome, "nothing was sent, so nothing can have happened")
				for _, want := range tt.wantText {
					assert.Contains(t, c.res.Diag.Message, want)
				}
				assert.NotEmpty(t, c.res.Diag.NextStep)
				c.assertNothingSent(t)
			})
		})
	}
}

func TestExecutionArgumentsAreValidated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args map[string]any
	}{
		{"a missing action", map[string]any{"params": map[string]any{}}},
		{"params that are not an object", map[string]any{"action": "get_status", "params": "x"}},
		{"an unknown argument", map[string]any{"action": "get_status", "extra": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, readEnv())
				traceID, tp := newTrace(t)
				r := s.call(t, "query_action", tt.args, map[string]any{"traceparent": tp})
				assert.True(t, r.IsError)
				assert.Equal(t, "invalid_argument", r.Diag.Kind)
				assert.Empty(t, snow.ByTrace(traceID), "nothing may be sent")
			})
		})
	}
}

func TestInvokeActionRunsWritesInWriteMode(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		c := s.run(t, "invoke_action", "send_group_msg", map[string]any{"group_id": fake.GroupID, "message": "hello from e2e"}, "")
		require.False(t, c.res.IsError, c.res.Text)
		assert.Equal(t, "success", c.res.Diag.Outcome)
		sent := c.sent(t)
		require.Len(t, sent, 1, "a write is sent exactly once")
		assert.Equal(t, "send_group_msg", sent[0].Action)
		assert.JSONEq(t, string(sent[0].Response), string(c.res.Result))

		var env struct {
			Data struct {
				MessageID int32 `json:"message_id"`
			} `json:"data"`
		}
		c.res.decodeResult(t, &env)
		require.NotZero(t, env.Data.MessageID)
		assert.True(t, snow.Stored(env.Data.MessageID))

		t.Run("the returned id works with get_msg, negative or not", func(t *testing.T) {
			g := s.run(t, "query_action", "get_msg", map[string]any{"message_id": env.Data.MessageID}, "")
			require.False(t, g.res.IsError, g.res.Text)
			assert.Equal(t, "success", g.res.Diag.Outcome)
			var got struct {
				Data struct {
					MessageID int32 `json:"message_id"`
				} `json:"data"`
			}
			g.res.decodeResult(t, &got)
			assert.Equal(t, env.Data.MessageID, got.Data.MessageID)
		})
	})
}

func TestInvokeActionDoesNotExistOutsideWriteMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  func() map[string]string
		tool string
	}{
		{"read mode has no invoke_action", readEnv, "invoke_action"},
		{"docs mode has no invoke_action", docsEnv, "invoke_action"},
		{"docs mode has no query_action", docsEnv, "query_action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, tt.env())
				assert.NotContains(t, s.toolNames(), tt.tool)
				traceID, tp := newTrace(t)
				tag := newTag(t)
				res, err := s.callRaw(testCtx(t), tt.tool, map[string]any{
					"action": "get_status", "params": map[string]any{fake.Marker: "tag:" + tag},
				}, map[string]any{"traceparent": tp})
				refused := err != nil || (res != nil && res.IsError)
				assert.True(t, refused, "calling %s must fail", tt.tool)
				assert.Empty(t, snow.ByTrace(traceID))
				assert.Empty(t, snow.ByTag(tag))
			})
		})
	}
}

func TestAliasesResolveBeforeSending(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, readEnv())
		c := s.run(t, "query_action", "get_ptt_text", map[string]any{"message_id": "-1264852461"}, "")
		require.False(t, c.res.IsError, c.res.Text)
		sent := c.sent(t)
		require.Len(t, sent, 1)
		assert.Equal(t, "fetch_ptt_text", sent[0].Action, "SnowLuma gets the canonical name")
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		c.res.decodeResult(t, &env)
		// A transcript names no author, so it comes marked as someone's
		// words (see TestWithoutLockdownEverythingComesThroughMarked).
		assert.JSONEq(t, `{"text":"你好，世界","third_party":{"author":null}}`, string(env.Data))
	})
}
