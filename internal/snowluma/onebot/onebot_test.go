package onebot

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

func serve(t *testing.T, h http.HandlerFunc) (*Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return New(u, "s3cret", StreamTimeouts{}), &n
}

func reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func TestDo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		code    fault.Code
		status  string
	}{
		{"passes an ok envelope through", reply(200, `{"status":"ok","retcode":0,"data":{"message_id":-1559550018}}`), "", "ok"},
		{"keeps a failed envelope as data", reply(200, `{"status":"failed","retcode":100,"data":null,"wording":"message not found"}`), "", "failed"},
		{"reports 401 as an auth failure", reply(401, `{"status":"failed","retcode":1401,"data":null,"wording":"unauthorized"}`), fault.CodeUpstreamAuth, ""},
		{"reports 500 as an upstream failure", reply(500, `{"status":"failed","retcode":1200,"data":null,"wording":"boom"}`), fault.CodeUpstreamHTTP, ""},
		{"reports a non-JSON reply", reply(200, `<html>`), fault.CodeBadReply, ""},
		{"reports a JSON array reply", reply(200, `[1]`), fault.CodeBadReply, ""},
		{"reports an empty reply", reply(200, ``), fault.CodeBadReply, ""},
		{"does not follow redirects with the token", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://127.0.0.1:1/elsewhere", http.StatusFound)
		}, fault.CodeUpstreamHTTP, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, n := serve(t, tt.handler)
			r, err := c.Do(context.Background(), "get_msg", json.RawMessage(`{"message_id":-1559550018}`))
			assert.Equal(t, int32(1), n.Load(), "exactly one request, never a retry")
			if tt.code != "" {
				require.Error(t, err)
				assert.Equal(t, tt.code, fault.CodeOf(err))
				assert.NotContains(t, err.Error(), "s3cret")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.status, r.Status)
		})
	}
}

func TestDoSendsTheRequestShape(t *testing.T) {
	t.Parallel()
	var got *http.Request
	var body []byte
	c, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		body, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"status":"ok","retcode":0,"data":null}`)
	})
	_, err := c.With(http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}).
		Do(context.Background(), "send_group_msg", json.RawMessage(`{"group_id":123456789,"message":"hi"}`))
	require.NoError(t, err)
	assert.Equal(t, http.MethodPost, got.Method)
	assert.Equal(t, "Bearer s3cret", got.Header.Get("Authorization"))
	assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
	assert.Equal(t, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", got.Header.Get("traceparent"))
	assert.JSONEq(t, `{"action":"send_group_msg","params":{"group_id":123456789,"message":"hi"}}`, string(body))
}

func TestDoKeepsBytesVerbatim(t *testing.T) {
	t.Parallel()
	raw := `{"status":"ok","retcode":0,"data":{"file_size":"1048576","id":-2147483648,"big":12345678901234567890,"n":null,"o":{}}}`
	c, _ := serve(t, reply(200, raw))
	r, err := c.Do(context.Background(), "get_file", nil)
	require.NoError(t, err)
	assert.Equal(t, raw, string(r.Raw))
}

func TestDoHonoursContext(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	c, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		code fault.Code
	}{
		{"reports a deadline as a timeout", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, fault.CodeTimeout},
		{"reports cancellation", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			return ctx, cancel
		}, fault.CodeCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			_, err := c.Do(ctx, "get_status", nil)
			assert.Equal(t, tt.code, fault.CodeOf(err))
		})
	}
}

func TestDoReportsUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	u, _ := url.Parse(srv.URL)
	srv.Close()
	_, err := New(u, "s3cret", StreamTimeouts{}).Do(context.Background(), "get_status", nil)
	assert.Equal(t, fault.CodeTransport, fault.CodeOf(err))
	assert.NotContains(t, err.Error(), u.Host, "the endpoint stays out of messages")
}
