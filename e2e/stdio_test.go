package e2e

// The stdio transport at the wire: bad input gets an error reply and the
// session goes on, no reply ever carries the invalid error code 0, closing
// stdin ends the process cleanly, and a request written just before stdin
// closes is still answered.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestBadInputGetsAnErrorReplyAndTheSessionGoesOn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		line     string
		wantCode int
		wantID   string
	}{
		{"a line that is not JSON", `this is not json {`, -32700, "null"},
		{"a truncated object", `{"jsonrpc":"2.0","id":3,"method":"tools/list"`, -32700, "null"},
		{"a message with a non-string method", `{"jsonrpc":"2.0","id":77,"method":5}`, -32600, "77"},
		{"a batch", `[{"jsonrpc":"2.0","id":78,"method":"tools/list"}]`, -32600, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				r := rawSession(t, version, docsEnv())
				r.writeLine(tt.line)
				m := r.next()
				require.NotNil(t, m.Error, "%s", m)
				assert.Equal(t, tt.wantCode, m.Error.Code)
				assert.Equal(t, tt.wantID, string(m.ID), "%s", m)

				after := r.callTool("list_categories", map[string]any{}, nil)
				require.Nil(t, after.Error, "the session keeps serving: %s", after)
				_, diag := structured(t, after)
				assert.Equal(t, "success", diag.Outcome)
			})
		})
	}
}

// Every request must get a reply the client can match to it. A null or
// fractional ID is bad input (MCP requires a string or integer ID) and
// may be refused with Invalid Request and id null; any ID the server
// accepts must be echoed exactly, including integers beyond float64
// precision. Dropping the line silently, or answering under a different
// ID, leaves the client waiting forever.
func TestEveryRequestGetsAReplyCarryingItsOwnID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		id   string
	}{
		{"a null id", `null`},
		{"a fractional id", `9.5`},
		{"an integer id beyond float64 precision", `9007199254740993`},
		{"an ordinary integer id (control)", `41`},
		{"a string id (control)", `"req-7"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				r := rawSession(t, version, docsEnv())
				params, err := json.Marshal(r.params(nil, nil))
				require.NoError(t, err)
				r.writeLine(`{"jsonrpc":"2.0","id":` + tt.id + `,"method":"tools/list","params":` + string(params) + `}`)
				// A follow-up call shows whether the first line got any reply.
				// Replies may come in either order, so read both.
				follow := r.send("tools/call", r.params(map[string]any{"name": "list_categories", "arguments": map[string]any{}}, nil))
				var first, after *rawMessage
				for first == nil || after == nil {
					m := r.next()
					if m.Method != "" {
						continue
					}
					if string(m.ID) == fmt.Sprint(follow) {
						require.Nil(t, after, "a second reply for the follow-up arrived instead of one for id %s", tt.id)
						after = &m
					} else {
						first = &m
					}
				}
				refused := first.Error != nil && first.Error.Code == -32600 && string(first.ID) == "null"
				echoed := string(first.ID) == tt.id
				assert.True(t, refused || echoed, "the reply can be matched to the request with id %s: %s", tt.id, first)
				require.Nil(t, after.Error, "the session keeps serving: %s", after)
			})
		})
	}
}

func TestAnOverlongLineIsRefusedAndTheSessionGoesOn(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		r := rawSession(t, version, docsEnv())
		r.writeLine(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_actions","arguments":{"query":"` +
			strings.Repeat("x", 17<<20) + `"}}}`)
		m := r.next()
		require.NotNil(t, m.Error, "%s", m)
		assert.Equal(t, -32600, m.Error.Code)
		after := r.callTool("list_categories", map[string]any{}, nil)
		require.Nil(t, after.Error, "the session keeps serving: %s", after)
	})
}

func TestNoReplyCarriesErrorCodeZero(t *testing.T) {
	t.Parallel()
	t.Run("a legacy request before initialize", func(t *testing.T) {
		t.Parallel()
		r := startRaw(t, legacy, docsEnv())
		m := r.request("tools/list", nil)
		require.NotNil(t, m.Error, "%s", m)
		assert.NotZero(t, m.Error.Code, "%s", m)
	})
	t.Run("a second initialize", func(t *testing.T) {
		t.Parallel()
		r := rawSession(t, legacy, docsEnv())
		m := r.request("initialize", map[string]any{"protocolVersion": legacy, "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": "again", "version": "1"}})
		require.NotNil(t, m.Error, "%s", m)
		assert.NotZero(t, m.Error.Code, "%s", m)
	})
	t.Run("server/discover without modern metadata", func(t *testing.T) {
		t.Parallel()
		r := startRaw(t, legacy, docsEnv())
		m := r.request("server/discover", map[string]any{})
		require.NotNil(t, m.Error, "%s", m)
		assert.NotZero(t, m.Error.Code, "%s", m)
	})
	t.Run("a modern request without client capabilities", func(t *testing.T) {
		t.Parallel()
		r := startRaw(t, modern, docsEnv())
		m := r.request("tools/list", map[string]any{"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": modern}})
		require.NotNil(t, m.Error, "%s", m)
		assert.NotZero(t, m.Error.Code, "%s", m)
	})
}

func TestClosingStdinEndsTheProcessCleanly(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		r := startRaw(t, version, readEnv())
		if version == modern {
			m := r.request("server/discover", r.params(nil, nil))
			require.Nil(t, m.Error, "%s", m)
		} else {
			r.handshake()
		}
		require.NoError(t, r.stdin.Close())
		assert.Equal(t, 0, r.waitExit(), "stderr:\n%s", r.stderr)
	})
}

func TestARequestWrittenBeforeStdinClosesIsAnswered(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		r := rawSession(t, version, readEnv())
		traceID, tp := newTrace(t)
		id := r.send("tools/call", r.params(map[string]any{
			"name":      "query_action",
			"arguments": map[string]any{"action": "get_login_info", "params": map[string]any{fake.Marker: "slow:300"}},
		}, map[string]any{"traceparent": tp}))
		require.NoError(t, r.stdin.Close())

		m := r.await(id)
		result, diag := structured(t, m)
		assert.Equal(t, "success", diag.Outcome, "%s", m)
		var env struct {
			Data struct {
				UserID int `json:"user_id"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(result, &env))
		assert.Equal(t, fake.SelfID, env.Data.UserID)
		assert.Len(t, snow.ByTrace(traceID), 1)
		assert.Equal(t, 0, r.waitExit(), "stderr:\n%s", r.stderr)
	})
}
