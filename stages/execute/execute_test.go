package execute

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/trace"
)

func TestExecuteBindsTraceHeaders(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("traceparent")
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":null}`))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	sc, _ := trace.Start(nil)
	c := &pipeline.Call{Tool: &pipeline.Tool{Name: "query_action", Route: pipeline.RouteQuery}, Span: sc}
	h := New(onebot.New(u, "", onebot.StreamTimeouts{}), 1, time.Second).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		_, err := c.OneBot.Do(ctx, "get_status", nil)
		return &pipeline.Result{}, err
	})
	_, err := h(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, trace.Traceparent(sc), <-got)
}

func TestExecuteWithoutClient(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		route pipeline.Route
		code  fault.Code
	}{
		{"lets docs tools run without a client", pipeline.RouteNone, ""},
		{"refuses execution without a client", pipeline.RouteQuery, fault.CodeModeDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := New(nil, 1, time.Second).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				assert.Nil(t, c.OneBot)
				return &pipeline.Result{}, nil
			})
			_, err := h(context.Background(), &pipeline.Call{Tool: &pipeline.Tool{Name: "x", Route: tt.route}})
			if tt.code == "" {
				assert.NoError(t, err)
			} else {
				assert.Equal(t, tt.code, fault.CodeOf(err))
			}
		})
	}
}

func TestStreamSlots(t *testing.T) {
	t.Parallel()
	u, _ := url.Parse("http://127.0.0.1:1/")
	s := New(onebot.New(u, "", onebot.StreamTimeouts{}), 1, 50*time.Millisecond)
	stream := &pipeline.Call{Tool: &pipeline.Tool{Name: "invoke_action", Route: pipeline.RouteInvoke}, Action: &catalog.Action{Name: "test_download_stream", Stream: true}}
	inside := make(chan struct{})
	release := make(chan struct{})
	h := s.Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		close(inside)
		<-release
		return &pipeline.Result{}, nil
	})
	go func() { _, _ = h(context.Background(), stream) }()
	<-inside
	second := s.Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil })
	_, err := second(context.Background(), &pipeline.Call{Tool: stream.Tool, Action: stream.Action})
	assert.Equal(t, fault.CodeLimit, fault.CodeOf(err), "a second stream fails once the wait is over")
	ordinary := &pipeline.Call{Tool: stream.Tool, Action: &catalog.Action{Name: "get_status"}}
	_, err = second(context.Background(), ordinary)
	assert.NoError(t, err, "ordinary actions need no slot")
	close(release)
	require.Eventually(t, func() bool {
		_, err := second(context.Background(), &pipeline.Call{Tool: stream.Tool, Action: stream.Action})
		return err == nil
	}, 5*time.Second, 10*time.Millisecond, "the slot frees when the first stream ends")
}
