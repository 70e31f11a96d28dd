package bind

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

var (
	docsTool   = stagetest.Docs
	queryTool  = stagetest.Query
	invokeTool = stagetest.Invoke
)

// stream is a call of a stream action, which needs a slot.
func stream() *pipeline.Call { return stagetest.Call(invokeTool, "test_download_stream", "") }

func TestBindAttachesTraceHeaders(t *testing.T) {
	t.Parallel()
	got := make(chan http.Header, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Clone()
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":null}`))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	h := New(onebot.New(u, "", onebot.StreamTimeouts{}), slot.NewPool(1, time.Second)).Wrap(queryTool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		require.NotNil(t, c.OneBot)
		_, err := c.OneBot.Do(ctx, "get_status", nil)
		return &pipeline.Result{}, err
	})
	// Two calls through the same stage each carry their own span.
	for _, meta := range []map[string]any{nil, {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": "vendor=abc"}} {
		sc, _ := span.Start(meta)
		c := stagetest.Call(queryTool, "get_status", "")
		c.Span = sc
		_, err := h(context.Background(), c)
		require.NoError(t, err)
		headers := <-got
		assert.Equal(t, span.Traceparent(sc), headers.Get("traceparent"))
		assert.Equal(t, sc.TraceState().String(), headers.Get("tracestate"))
	}
}

func TestBindWithoutClient(t *testing.T) {
	t.Parallel()
	// Without a client (docs mode) the stage passes every call through: the
	// gate has already refused the tools that would need one.
	tests := []struct {
		name string
		tool *pipeline.Tool
	}{
		{"lets docs tools run without a client", docsTool},
		{"leaves execution tools to the gate", queryTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stage := New(nil, slot.NewPool(1, time.Second))
			assert.True(t, stagetest.Skips(stage, tt.tool), "the stage returns next unchanged")
			o := stagetest.Run(context.Background(), stage, stagetest.Call(tt.tool, "", ""), nil)
			assert.NoError(t, o.Err)
			require.True(t, o.Reached())
			assert.Nil(t, o.Next.OneBot)
		})
	}
}

func TestStreamSlots(t *testing.T) {
	t.Parallel()
	u, _ := url.Parse("http://127.0.0.1:1/")
	s := New(onebot.New(u, "", onebot.StreamTimeouts{}), slot.NewPool(1, 50*time.Millisecond))
	inside := make(chan struct{})
	release := make(chan struct{})
	finished := make(chan struct{})
	h := s.Wrap(invokeTool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		close(inside)
		<-release
		return &pipeline.Result{}, nil
	})
	go func() {
		defer close(finished)
		_, _ = h(context.Background(), stream())
	}()
	<-inside
	second := s.Wrap(invokeTool, stagetest.Answer(&pipeline.Result{}, nil))
	_, err := second(context.Background(), stream())
	assert.Equal(t, fault.CodeLimit, fault.CodeOf(err), "a second stream fails once the wait is over")
	assert.True(t, fault.NothingSent(err), "a stream that never got a slot sent nothing")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = second(cancelled, stream())
	assert.Equal(t, fault.CodeCancelled, fault.CodeOf(err), "a cancelled wait for a slot is a cancellation")
	assert.True(t, fault.NothingSent(err))
	_, err = second(context.Background(), stagetest.Call(invokeTool, "get_status", ""))
	assert.NoError(t, err, "ordinary actions need no slot")
	_, err = second(context.Background(), stagetest.Call(docsTool, "", ""))
	assert.NoError(t, err, "calls without an action need no slot")
	close(release)
	<-finished
	_, err = second(context.Background(), stream())
	assert.NoError(t, err, "the slot frees when the first stream ends")
}
