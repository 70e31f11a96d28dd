package execute

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	h := New(onebot.New(u, "", onebot.StreamTimeouts{})).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
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
			h := New(nil).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
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
