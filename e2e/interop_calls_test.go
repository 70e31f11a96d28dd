package e2e

// Long and interactive calls through @modelcontextprotocol/client 2.4.0 in
// its three negotiation modes: progress on a stream download
// (progress.mjs), cancelling a slow call (cancel.mjs) and input completion
// (input.mjs: MRTR on 2026-07-28, elicitation/create on legacy).

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// progressReport is progress.mjs's report.
type progressReport struct {
	negotiatedReport
	Progress []struct {
		Progress float64  `json:"progress"`
		Total    *float64 `json:"total"`
	} `json:"progress"`
	Wire         []float64    `json:"wire"`
	Result       clientResult `json:"result"`
	ClientErrors []string     `json:"clientErrors"`
}

func TestInteropClientReceivesDownloadProgress(t *testing.T) {
	t.Parallel()
	seed, ok := fake.StreamFileAt(fake.FileSeed)
	require.True(t, ok)
	size := float64(len(seed.Data))
	forEachEra(t, func(t *testing.T, era string) {
		env, dirs := streamEnv(t)
		traceID, tp := newTrace(t)
		var got progressReport
		// Slow frames, so that the 250 ms throttle lets several through.
		runClient(t, "progress.mjs", era, env, map[string]any{"traceparent": tp, "params": map[string]any{
			"file": fake.FileSeed, "chunk_size": 10000, fake.Marker: "slowframes:70"}}, &got)
		got.assertNegotiated(t, era)

		require.False(t, got.Result.IsError, "%+v", got.Result)
		var saved savedResult
		got.Result.decode(t, &saved)
		assert.Equal(t, sha256Hex(seed.Data), saved.SavedFile.SHA256, "the client got the saved file's digest")
		assert.Equal(t, []string{saved.SavedFile.FileName}, entries(t, dirs.download))
		assert.Len(t, snow.ByTrace(traceID), 1, "one stream request")

		// The server's side: growing byte counts, all before the response,
		// and never the whole file: the response says the transfer is
		// complete, and a notification read with it is lost (below).
		require.GreaterOrEqual(t, len(got.Wire), 2, "several notifications before the response")
		for i := 1; i < len(got.Wire); i++ {
			assert.Greater(t, got.Wire[i], got.Wire[i-1], "progress only grows")
		}
		assert.Less(t, got.Wire[len(got.Wire)-1], size, "no notification reports the whole file")

		// The client's side: onprogress saw every one of them with the
		// announced size as total. Client 2.4.0 loses a notification it
		// reads in the same chunk as the response (it runs notification
		// handlers a microtask late and has by then dropped the call's
		// progress handler) and says so through onerror: no longer the
		// 100 % one, which is not sent, but a throttled one can still land
		// there by chance.
		var seen []float64
		for i, p := range got.Progress {
			seen = append(seen, p.Progress)
			require.NotNil(t, p.Total, "notification %d has a total", i)
			assert.Equal(t, size, *p.Total)
		}
		if len(seen) == len(got.Wire) {
			assert.Equal(t, got.Wire, seen, "onprogress saw every notification")
		} else {
			assert.Equal(t, got.Wire[:len(got.Wire)-1], seen, "onprogress saw every notification but the last")
			require.NotEmpty(t, got.ClientErrors)
			assert.Contains(t, got.ClientErrors[0], "progress notification for an unknown token",
				"the client lost the final notification to its own late dispatch")
		}
	})
}

// cancelReport is cancel.mjs's report.
type cancelReport struct {
	negotiatedReport
	Result       *clientResult `json:"result"`
	Error        *clientError  `json:"error"`
	After        clientResult  `json:"after"`
	ClientErrors []string      `json:"clientErrors"`
}

func TestInteropClientCancelsASlowCall(t *testing.T) {
	t.Parallel()
	forEachEra(t, func(t *testing.T, era string) {
		traceID, tp := newTrace(t)
		run := startClient(t, "cancel.mjs", era, writeEnv(), map[string]any{
			"traceparent": tp, "params": map[string]any{fake.Marker: "slow:60000"}})
		// Cancel only once SnowLuma has read the whole request, so the
		// cancellation has an HTTP request to end.
		require.Eventually(t, func() bool {
			reqs := snow.ByTrace(traceID)
			return len(reqs) == 1 && len(reqs[0].Body) > 0
		}, safety, 5*time.Millisecond, "the slow request never reached SnowLuma; client stderr:\n%s", run.stderr)
		run.say("go")
		var got cancelReport
		run.finish(&got)
		got.assertNegotiated(t, era)

		assert.Nil(t, got.Result, "a cancelled call has no result")
		require.NotNil(t, got.Error, "the aborted call rejects")
		// Client 2.4.0 rejects with an SdkError carrying the abort reason
		// (it labels every abort with the code REQUEST_TIMEOUT).
		assert.Equal(t, "SdkError", got.Error.Name)
		assert.Equal(t, "the user cancelled", got.Error.Message, "the client reports its own abort reason")
		require.Eventually(t, func() bool {
			reqs := snow.ByTrace(traceID)
			return len(reqs) == 1 && reqs[0].ClientGone
		}, safety, 5*time.Millisecond, "notifications/cancelled must end the request to SnowLuma")
		assert.Len(t, snow.ByTrace(traceID), 1, "nothing is retried after a cancellation")
		assert.False(t, got.After.IsError, "the session serves the next call: %+v", got.After)
		assert.Empty(t, got.ClientErrors, "the cancelled call is not answered, so the client meets no answer for an id it forgot")
	})
}

// inputReport is input.mjs's report.
type inputReport struct {
	negotiatedReport
	Asked []struct {
		Mode            string `json:"mode"`
		Message         string `json:"message"`
		RequestedSchema struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		} `json:"requestedSchema"`
	} `json:"asked"`
	Wire struct {
		ServerRequests int `json:"serverRequests"`
		InputRequired  int `json:"inputRequired"`
	} `json:"wire"`
	Result clientResult `json:"result"`
}

func TestInteropClientCompletesMissingInput(t *testing.T) {
	t.Parallel()
	forEachEra(t, func(t *testing.T, era string) {
		traceID, tp := newTrace(t)
		var got inputReport
		runClient(t, "input.mjs", era, writeEnv(), map[string]any{
			"traceparent": tp,
			"arguments":   map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID}},
			"answer":      `{"message":"填好了 (filled in)"}`,
		}, &got)
		got.assertNegotiated(t, era)

		require.Len(t, got.Asked, 1, "the client's elicitation handler was asked once")
		assert.Contains(t, got.Asked[0].RequestedSchema.Properties, "params_json")
		assert.Equal(t, []string{"params_json"}, got.Asked[0].RequestedSchema.Required)
		assert.Contains(t, got.Asked[0].Message, "message", "the question names the missing field")
		if era == "legacy" {
			assert.Equal(t, 1, got.Wire.ServerRequests, "legacy: a server-to-client elicitation/create")
			assert.Zero(t, got.Wire.InputRequired)
		} else {
			assert.Equal(t, 1, got.Wire.InputRequired, "2026-07-28: an input_required result, then the client's retry")
			assert.Zero(t, got.Wire.ServerRequests, "2026-07-28: no server-to-client request")
		}

		require.False(t, got.Result.IsError, "%+v", got.Result)
		assert.Equal(t, "success", got.Result.StructuredContent.Diagnostics.Outcome)
		sent := snow.ByTrace(traceID)
		require.Len(t, sent, 1, "executed exactly once, after the answer")
		assert.Equal(t, "send_group_msg", sent[0].Action)
		assert.JSONEq(t, `{"group_id":123456789,"message":"填好了 (filled in)"}`, string(sent[0].Params),
			"SnowLuma got the given field and the elicited one")
	})
}
