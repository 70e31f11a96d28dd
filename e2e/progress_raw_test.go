package e2e

// Progress at the wire (PROG-1): read in the order the binary wrote them,
// a call's progress notifications all come before its result, none reports
// the complete transfer just before it, none follow the result of a
// completed or a cancelled call, and none carries anything
// but the token and the numbers (never file bytes). The raw driver is used
// because the SDK client hands a response over ahead of the notifications
// it queued before it.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// progressParams are the params of one notifications/progress line.
type progressParams struct {
	Token    json.RawMessage `json:"progressToken"`
	Progress float64         `json:"progress"`
	Total    *float64        `json:"total"`
}

// readUntilResponse reads messages until the response with id and returns
// the progress notifications before it.
func readUntilResponse(t *testing.T, r *rawServer, id int) ([]rawMessage, rawMessage) {
	t.Helper()
	want := fmt.Sprint(id)
	var progress []rawMessage
	for {
		m := r.next()
		if m.Method == "notifications/progress" {
			progress = append(progress, m)
			continue
		}
		if m.Method == "" && string(m.ID) == want {
			return progress, m
		}
	}
}

// decodeProgress checks one notification's shape and returns its params.
func decodeProgress(t *testing.T, m rawMessage) progressParams {
	t.Helper()
	var env struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	require.NoError(t, json.Unmarshal(m.Line, &env))
	for k := range env.Params {
		assert.Contains(t, []string{"progressToken", "progress", "total", "message", "_meta"}, k, "unexpected field in %s", m)
	}
	assert.Less(t, len(m.Line), 512, "a progress notification carries numbers, never file bytes: %s", m)
	var p progressParams
	raw, err := json.Marshal(env.Params)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &p))
	return p
}

// assertQuietUntilNextResponse sends tools/list and requires that no
// progress notification arrives before its answer.
func assertQuietUntilNextResponse(t *testing.T, r *rawServer) {
	t.Helper()
	id := r.send("tools/list", r.params(map[string]any{}, nil))
	late, resp := readUntilResponse(t, r, id)
	require.Nil(t, resp.Error, "tools/list: %s", resp)
	assert.Empty(t, late, "progress notifications arrived after the call's result")
}

func TestProgressNeverFollowsTheResult(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, _ := streamEnv(t)
		r := rawSession(t, version, env)
		token := "raw-" + newTag(t)
		id := r.send("tools/call", r.params(map[string]any{"name": "invoke_action", "arguments": map[string]any{
			"action": "download_file_stream",
			"params": map[string]any{"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:40"},
		}}, map[string]any{"progressToken": token}))
		progress, resp := readUntilResponse(t, r, id)
		_, diag := structured(t, resp)
		require.Equal(t, "success", diag.Outcome, "%s", resp)
		require.NotEmpty(t, progress, "a call with a token gets progress")
		last := decodeProgress(t, progress[len(progress)-1])
		assert.Less(t, last.Progress, float64(150*1024),
			"no notification reports the complete transfer: the result does, and a client reading both at once loses the notification")
		for _, m := range progress {
			p := decodeProgress(t, m)
			assert.JSONEq(t, `"`+token+`"`, string(p.Token), "the token is echoed exactly")
			require.NotNil(t, p.Total)
			assert.Equal(t, float64(150*1024), *p.Total)
		}
		assertQuietUntilNextResponse(t, r)
	})
}

func TestProgressStopsWithCancellation(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, dirs := streamEnv(t)
		r := rawSession(t, version, env)
		token := "cancel-" + newTag(t)
		traceID, tp := newTrace(t)
		id := r.send("tools/call", r.params(map[string]any{"name": "invoke_action", "arguments": map[string]any{
			"action": "download_file_stream",
			"params": map[string]any{"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:150"},
		}}, map[string]any{"progressToken": token, "traceparent": tp}))

		// Wait for the first notification, then cancel the call.
		for {
			m := r.next()
			if m.Method == "notifications/progress" {
				break
			}
			require.False(t, m.Method == "" && string(m.ID) == fmt.Sprint(id), "the call ended before any progress: %s", m)
		}
		r.notify("notifications/cancelled", map[string]any{"requestId": id, "reason": "e2e cancels"})
		require.Eventually(t, func() bool {
			sent := snow.ByTrace(traceID)
			return len(sent) == 1 && sent[0].ClientGone
		}, safety, 5*time.Millisecond, "the cancellation reaches SnowLuma")

		// The cancelled call is not answered, and nothing of it follows:
		// once its log line shows it ended, read to the next response.
		require.Eventually(t, func() bool { return strings.Contains(r.stderr.String(), tp[:35]) }, safety, 5*time.Millisecond,
			"the cancelled call never ended")
		next := r.send("tools/list", r.params(map[string]any{}, nil))
		for {
			m := r.next()
			require.False(t, m.Method == "" && string(m.ID) == fmt.Sprint(id), "the cancelled call was answered: %s", m)
			require.NotEqual(t, "notifications/progress", m.Method, "progress after the cancellation: %s", m)
			if m.Method == "" && string(m.ID) == fmt.Sprint(next) {
				break
			}
		}
		require.Eventually(t, func() bool { return len(entries(t, dirs.download)) == 0 }, safety, 5*time.Millisecond,
			"no partial file may remain")
	})
}
