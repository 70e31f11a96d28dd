package onebot

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
)

const (
	frameA = `{"status":"ok","retcode":0,"data":{"type":"stream","data_type":"data_chunk","data":"Index-> 1"},"stream":"stream-action"}`
	frameZ = `{"status":"ok","retcode":0,"data":{"type":"response","data_type":"data_complete"},"stream":"stream-action"}`
)

func streamServer(t *testing.T, h http.HandlerFunc, st StreamTimeouts) Executor {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return New(u, "s3cret", st).With(http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})
}

func TestStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		st      StreamTimeouts
		frames  int
		code    fault.Code // at open or while reading
	}{
		{"reads frames as they come", func(w http.ResponseWriter, r *http.Request) {
			assert.Equal(t, "Bearer s3cret", r.Header.Get("Authorization"))
			assert.NotEmpty(t, r.Header.Get("traceparent"))
			_, _ = io.WriteString(w, frameA+"\r\n\r\n")
			w.(http.Flusher).Flush()
			_, _ = io.WriteString(w, frameZ+"\r\n\r\n")
		}, StreamTimeouts{}, 2, ""},
		{"reports 401 at open", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"status":"failed","retcode":1401,"data":null,"wording":"unauthorized"}`)
		}, StreamTimeouts{}, 0, fault.CodeUpstreamAuth},
		{"times out waiting for headers", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second):
			}
		}, StreamTimeouts{Connect: 50 * time.Millisecond}, 0, fault.CodeTimeout},
		{"times out when the body goes quiet", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, frameA+"\r\n\r\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, StreamTimeouts{Idle: 50 * time.Millisecond}, 1, fault.CodeTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body, err := streamServer(t, tt.handler, tt.st).Stream(context.Background(), "test_download_stream", nil)
			if err != nil {
				assert.Equal(t, tt.code, fault.CodeOf(err), err.Error())
				return
			}
			defer body.Close()
			n := 0
			for {
				_, err := body.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					assert.Equal(t, tt.code, fault.CodeOf(err), err.Error())
					break
				}
				n++
			}
			assert.Equal(t, tt.frames, n)
		})
	}
}

func TestStreamCancellationReachesTheBodyRead(t *testing.T) {
	t.Parallel()
	gone := make(chan struct{})
	ex := streamServer(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, frameA+"\r\n\r\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(gone)
	}, StreamTimeouts{})
	ctx, cancel := context.WithCancel(context.Background())
	body, err := ex.Stream(ctx, "test_download_stream", nil)
	require.NoError(t, err)
	defer body.Close()
	f, err := body.Next()
	require.NoError(t, err)
	assert.Equal(t, frame.Intermediate, f.Kind)
	cancel()
	_, err = body.Next()
	assert.Equal(t, fault.CodeCancelled, fault.CodeOf(err))
	<-gone
}
