package e2e

// Input completion (INPUT-1..4): the *_with_input tools ask the user for
// missing required params through form elicitation, on both protocol
// generations (input_required + retry for 2026-07-28, elicitation/create for
// legacy clients, both driven by the official SDK client), and never execute
// on a decline, a cancel or a bad answer. The continuation state is probed
// with the raw driver, since the SDK client handles it invisibly.

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// answerer is a scripted user answering elicitation requests.
type answerer struct {
	result *mcp.ElicitResult
	asked  atomic.Int32
	mu     sync.Mutex
	last   *mcp.ElicitParams
}

func (a *answerer) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	a.asked.Add(1)
	a.mu.Lock()
	a.last = req.Params
	a.mu.Unlock()
	return a.result, nil
}

// startAsking starts the binary under an SDK client that can answer form
// elicitation (or, with a nil answerer, cannot).
func startAsking(t *testing.T, version string, vars map[string]string, a *answerer) *server {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if a != nil {
		opts.ElicitationHandler = a.handle
	}
	cmd := exec.Command(binary)
	cmd.Env = environ(vars)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "snowluma-e2e", Version: "1.0.0"}, opts).
		Connect(testCtx(t), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err, "connect; stderr:\n%s", stderr)
	s := &server{version: version, session: cs, stderr: stderr, tools: map[string]*mcp.Tool{}}
	t.Cleanup(func() {
		s.close()
		assert.NoError(t, s.closeErr, "clean exit; stderr:\n%s", stderr)
		assertNoSecrets(t, "stderr", stderr.Raw())
	})
	res, err := cs.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	for _, tool := range res.Tools {
		s.tools[tool.Name] = tool
	}
	return s
}

func answer(text string) *mcp.ElicitResult {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"params_json": text}}
}

func TestInputCompletion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		tool     string
		action   string
		params   map[string]any
		reply    *mcp.ElicitResult // nil: the client cannot elicit
		asks     bool
		sent     bool
		kind     string
		wantSent map[string]any
	}{
		{"completes a missing field and executes once", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 123456789},
			answer(`{"message":"Hello"}`), true, true, "", map[string]any{"group_id": 123456789.0, "message": "Hello"}},
		{"asks for every missing field", "invoke_action_with_input", "send_group_msg", map[string]any{},
			answer(`{"group_id":987654321,"message":"Hi"}`), true, true, "", map[string]any{"group_id": 987654321.0, "message": "Hi"}},
		{"skips the prompt for complete arguments", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1, "message": "x"},
			answer(`{}`), false, true, "", map[string]any{"group_id": 1.0, "message": "x"}},
		{"completes a read-only query", "query_action_with_input", "get_msg", map[string]any{},
			answer(`{"message_id":-1559550018}`), true, true, "", map[string]any{"message_id": -1559550018.0}},
		{"executes nothing on decline", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1},
			&mcp.ElicitResult{Action: "decline"}, true, false, "input_declined", nil},
		{"executes nothing on cancel", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1},
			&mcp.ElicitResult{Action: "cancel"}, true, false, "input_declined", nil},
		{"executes nothing on invalid JSON", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1},
			answer(`{"message":`), true, false, "invalid_argument", nil},
		{"executes nothing on an invalid value", "query_action_with_input", "get_msg", map[string]any{},
			answer(`{"message_id":0}`), true, false, "invalid_argument", nil},
		{"refuses to overwrite a provided field", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1},
			answer(`{"message":"x","group_id":2}`), true, false, "invalid_argument", nil},
		{"refuses to overwrite the action", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1},
			answer(`{"message":"x","action":"delete_msg"}`), true, false, "invalid_argument", nil},
		{"refuses extra fields", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1},
			answer(`{"message":"x","auto_escape":true}`), true, false, "invalid_argument", nil},
		{"gates before asking", "query_action_with_input", "send_group_msg", map[string]any{},
			answer(`{"group_id":1,"message":"x"}`), false, false, "wrong_tool", nil},
		{"points a client without form support to the plain tool", "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 1},
			nil, false, false, "unsupported", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				var a *answerer
				if tt.reply != nil {
					a = &answerer{result: tt.reply}
				}
				s := startAsking(t, version, writeEnv(), a)
				call := s.run(t, tt.tool, tt.action, tt.params, "")
				if a != nil {
					assert.Equal(t, tt.asks, a.asked.Load() > 0, "whether the user was asked")
					if tt.asks {
						a.mu.Lock()
						assert.Equal(t, "form", a.last.Mode)
						assert.Contains(t, a.last.Message, tt.action)
						a.mu.Unlock()
					}
				}
				if !tt.sent {
					assert.True(t, call.res.IsError)
					assert.Equal(t, tt.kind, call.res.Diag.Kind, call.res.Diag.Message)
					call.assertNothingSent(t)
					if tt.kind == "input_declined" {
						// The SDK's client answers like a host that
						// answers alone: never the user's choice.
						assert.NotContains(t, call.res.Text, "user chose")
						assert.Contains(t, call.res.Diag.Message, "by the user or by a host that answers forms without showing them")
						assert.Contains(t, call.res.Diag.NextStep, "ask them in the chat for message")
					}
					if tt.kind == "unsupported" {
						assert.Contains(t, call.res.Diag.Message, "invoke_action with complete params")
					}
					return
				}
				assert.False(t, call.res.IsError, call.res.Diag.Message)
				sent := call.sent(t)
				require.Len(t, sent, 1, "the action runs exactly once")
				var got map[string]any
				require.NoError(t, json.Unmarshal(sent[0].Params, &got))
				for k, v := range tt.wantSent {
					assert.Equal(t, v, got[k], k)
				}
			})
		})
	}
}

// TestPlainToolsNeverAsk checks that the original tools keep failing on
// missing params instead of prompting.
func TestPlainToolsNeverAsk(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		a := &answerer{result: answer(`{"message":"x"}`)}
		s := startAsking(t, version, writeEnv(), a)
		call := s.run(t, "invoke_action", "send_group_msg", map[string]any{"group_id": 1}, "")
		assert.True(t, call.res.IsError)
		assert.Equal(t, "invalid_argument", call.res.Diag.Kind)
		assert.Zero(t, a.asked.Load())
		call.assertNothingSent(t)
	})
}

// The continuation state, seen on the wire by a 2026-07-28 client.
func TestContinuationState(t *testing.T) {
	t.Parallel()
	formMeta := func(r *rawServer) map[string]any {
		m := modernMeta(modern)
		m["io.modelcontextprotocol/clientCapabilities"] = map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
		return m
	}
	ask := func(t *testing.T, r *rawServer, tag string) (args map[string]any, state string) {
		args = map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": 123456789, fake.Marker: "tag:" + tag}}
		m := r.request("tools/call", map[string]any{"name": "invoke_action_with_input", "arguments": args, "_meta": formMeta(r)})
		require.Nil(t, m.Error, "%s", m)
		f := m.fields(t)
		assert.JSONEq(t, `"input_required"`, string(f["resultType"]))
		require.Contains(t, f, "inputRequests")
		require.NoError(t, json.Unmarshal(f["requestState"], &state))
		return args, state
	}
	retry := func(r *rawServer, args map[string]any, state string) int {
		return r.send("tools/call", map[string]any{"name": "invoke_action_with_input", "arguments": args, "_meta": formMeta(r),
			"requestState": state, "inputResponses": map[string]any{"params": map[string]any{"action": "accept", "content": map[string]any{"params_json": `{"message":"hi"}`}}}})
	}
	outcome := func(t *testing.T, m rawMessage) (isError bool, kind string) {
		var res struct {
			IsError bool `json:"isError"`
		}
		require.NoError(t, json.Unmarshal(m.Result, &res))
		_, diag := structured(t, m)
		return res.IsError, diag.Kind
	}
	tests := []struct {
		name  string
		run   func(t *testing.T, r *rawServer, args map[string]any, state string) []rawMessage
		wins  int
		sends int
	}{
		{"runs a resumed call once and refuses its replay", func(t *testing.T, r *rawServer, args map[string]any, state string) []rawMessage {
			first := r.await(retry(r, args, state))
			return []rawMessage{first, r.await(retry(r, args, state))}
		}, 1, 1},
		{"refuses a tampered state", func(t *testing.T, r *rawServer, args map[string]any, state string) []rawMessage {
			return []rawMessage{r.await(retry(r, args, "A"+state))}
		}, 0, 0},
		{"refuses a state used with other arguments", func(t *testing.T, r *rawServer, args map[string]any, state string) []rawMessage {
			other := map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": 987654321, fake.Marker: args["params"].(map[string]any)[fake.Marker]}}
			return []rawMessage{r.await(retry(r, other, state))}
		}, 0, 0},
		{"binds the state to the arguments without a host's control key", func(t *testing.T, r *rawServer, args map[string]any, state string) []rawMessage {
			// Gemini CLI forwards wait_for_previous when its model sets
			// it, on one call and not the next: the server drops it
			// before signing, so the answer resumes the call it asked for.
			waited := map[string]any{"wait_for_previous": true}
			for k, v := range args {
				waited[k] = v
			}
			return []rawMessage{r.await(retry(r, waited, state))}
		}, 1, 1},
		{"runs concurrent resumes at most once", func(t *testing.T, r *rawServer, args map[string]any, state string) []rawMessage {
			pending := map[string]bool{}
			for range 8 {
				pending[fmt.Sprint(retry(r, args, state))] = true
			}
			var out []rawMessage
			for len(pending) > 0 {
				m := r.next()
				if m.Method == "" && pending[string(m.ID)] {
					delete(pending, string(m.ID))
					out = append(out, m)
				}
			}
			return out
		}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := rawSession(t, modern, writeEnv())
			tag := newTag(t)
			args, state := ask(t, r, tag)
			wins := 0
			for _, m := range tt.run(t, r, args, state) {
				isError, kind := outcome(t, m)
				if !isError {
					wins++
					continue
				}
				assert.Equal(t, "invalid_argument", kind)
			}
			assert.Equal(t, tt.wins, wins)
			assert.Len(t, snow.ByTag(tag), tt.sends, "requests that reached SnowLuma")
		})
	}
}

// TestOneLogLinePerCompletedCall: the question to the user is not a call
// of its own, so a completed input round leaves exactly one stderr line.
func TestOneLogLinePerCompletedCall(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := startAsking(t, version, writeEnv(), &answerer{result: answer(`{"message":"Hello"}`)})
		call := s.run(t, "invoke_action_with_input", "send_group_msg", map[string]any{"group_id": 123456789}, "")
		require.False(t, call.res.IsError, call.res.Diag.Message)
		var mine []string
		for _, l := range lines(s.closeCleanly(t)) {
			if strings.Contains(l, "tool=invoke_action_with_input") {
				mine = append(mine, l)
			}
		}
		require.Len(t, mine, 1, "one line per call")
		assert.Contains(t, mine[0], "traceparent="+call.res.Traceparent)
		assert.Contains(t, mine[0], "outcome=success")
	})
}
