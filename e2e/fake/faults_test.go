package fake_test

// Fault markers and the request record: the two things parallel e2e tests
// rely on to provoke failures and to count only their own requests.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func newTraceID(t *testing.T) string {
	t.Helper()
	var b [16]byte
	_, err := rand.Read(b[:])
	require.NoError(t, err)
	return hex.EncodeToString(b[:])
}

func TestFaultMarkersChangeOnlyTheirRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		marker     string
		wantStatus int
		wantBody   string
		wantCT     string
	}{
		{"http500 is an adapter crash", "http500", 500,
			`{"status":"failed","retcode":1200,"data":null,"wording":"injected adapter failure"}`, "application/json; charset=utf-8"},
		{"notjson is a 200 that is not an envelope", "notjson", 200,
			`<html><body>this is not a OneBot envelope</body></html>`, "text/html"},
		{"async is an asynchronous acknowledgement", "async", 200,
			`{"status":"async","retcode":1,"data":null}`, "application/json; charset=utf-8"},
		{"a short slow still answers normally", "slow:5", 200, statusOK, "application/json; charset=utf-8"},
		{"tags change nothing", "tag:abc", 200, statusOK, "application/json; charset=utf-8"},
		{"unknown markers change nothing", "whatever", 200, statusOK, "application/json; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, `{"action":"get_status","params":{"_fake":"`+tt.marker+`"}}`, nil)
			assert.Equal(t, tt.wantStatus, r.status)
			assert.Equal(t, tt.wantBody, r.body)
			assert.Equal(t, tt.wantCT, r.header.Get("Content-Type"))
		})
	}
}

func TestHangupClosesWithoutResponse(t *testing.T) {
	t.Parallel()
	trace := newTraceID(t)
	_, err := call(t, context.Background(), srv, http.MethodPost, "/", "application/json", "Bearer "+token,
		`{"action":"get_status","params":{"_fake":"hangup"}}`, map[string]string{"traceparent": "00-" + trace + "-00f067aa0ba902b7-01"})
	require.Error(t, err)
	reqs := srv.ByTrace(trace)
	require.Len(t, reqs, 1)
	assert.Zero(t, reqs[0].Status)
}

func TestSlowRecordsThatTheClientWentAway(t *testing.T) {
	t.Parallel()
	trace := newTraceID(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := call(t, ctx, srv, http.MethodPost, "/", "application/json", "Bearer "+token,
			`{"action":"get_status","params":{"_fake":"slow:60000"}}`, map[string]string{"traceparent": "00-" + trace + "-00f067aa0ba902b7-01"})
		done <- err
	}()
	require.Eventually(t, func() bool { return len(srv.ByTrace(trace)) == 1 }, 20*time.Second, 5*time.Millisecond)
	cancel()
	require.Error(t, <-done)
	require.Eventually(t, func() bool {
		r := srv.ByTrace(trace)
		return len(r) == 1 && r[0].ClientGone && r[0].Done
	}, 20*time.Second, 5*time.Millisecond)
	assert.Zero(t, srv.ByTrace(trace)[0].Status, "nothing is answered to a client that left")
}

func TestRecordKeepsHeadersAndFindsRequests(t *testing.T) {
	t.Parallel()
	trace := newTraceID(t)
	tag := newTraceID(t)
	tp := "00-" + trace + "-00f067aa0ba902b7-01"
	r := post(t, `{"action":"get_status","params":{"_fake":"tag:`+tag+`","x":1}}`,
		map[string]string{"traceparent": tp, "tracestate": "vendor=abc", "baggage": "k=v"})
	require.Equal(t, statusOK, r.body)

	tests := []struct {
		name   string
		lookup func() []fake.Request
	}{
		{"by trace id", func() []fake.Request { return srv.ByTrace(trace) }},
		{"by tag", func() []fake.Request { return srv.ByTag(tag) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reqs := tt.lookup()
			require.Len(t, reqs, 1)
			q := reqs[0]
			assert.Equal(t, http.MethodPost, q.Method)
			assert.Equal(t, "/", q.Path)
			assert.Equal(t, "get_status", q.Action)
			assert.JSONEq(t, `{"_fake":"tag:`+tag+`","x":1}`, string(q.Params))
			assert.Equal(t, tp, q.Header.Get("traceparent"))
			assert.Equal(t, "vendor=abc", q.Header.Get("tracestate"))
			assert.Equal(t, "k=v", q.Header.Get("baggage"))
			assert.Equal(t, "Bearer "+token, q.Header.Get("Authorization"))
			assert.Equal(t, trace, q.TraceID)
			assert.Equal(t, 200, q.Status)
			assert.Equal(t, statusOK, string(q.Response))
			assert.Equal(t, `{"online":true,"good":true}`, string(q.Data()))
			assert.True(t, q.Done)
		})
	}
	assert.Empty(t, srv.ByTrace(newTraceID(t)), "an unused trace id finds nothing")
	assert.Empty(t, srv.ByTag(""), "an empty tag finds nothing")
}

func TestTraceIDOfParsesOnlyValidTraceparents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"valid", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"upper case is invalid", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", ""},
		{"too short", "00-4bf92f35-00f067aa0ba902b7-01", ""},
		{"garbage", "not-a-traceparent", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, fake.TraceIDOf(tt.in))
		})
	}
}

func TestRefusedRequestsStillRecordTheirBody(t *testing.T) {
	t.Parallel()
	trace := newTraceID(t)
	r, err := call(t, context.Background(), srv, http.MethodPost, "/", "application/json", "Bearer wrong",
		`{"action":"get_status","params":{"_fake":"tag:`+trace+`"}}`, map[string]string{"traceparent": "00-" + trace + "-00f067aa0ba902b7-01"})
	require.NoError(t, err)
	assert.Equal(t, 401, r.status)
	reqs := srv.ByTrace(trace)
	require.Len(t, reqs, 1)
	assert.Equal(t, reqs, srv.ByTag(trace), "the tag is found without parsing")
	assert.Empty(t, reqs[0].Action, "SnowLuma answers 401 before parsing")
	assert.Equal(t, "get_status", reqs[0].BodyAction())
	assert.Equal(t, 401, reqs[0].Status)
}

func TestRequestStringNeverShowsCredentials(t *testing.T) {
	t.Parallel()
	trace := newTraceID(t)
	post(t, `{"action":"get_status"}`, map[string]string{"traceparent": "00-" + trace + "-00f067aa0ba902b7-01"})
	reqs := srv.ByTrace(trace)
	require.Len(t, reqs, 1)
	s := fmt.Sprint(reqs)
	assert.Contains(t, s, `action="get_status"`)
	assert.NotContains(t, s, token)
}
