package bind_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/bind"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// The bind stage hands each call a OneBot client of its own, whose
// requests carry the call's trace to SnowLuma.
func Example() {
	snowLuma := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("SnowLuma got traceparent", r.Header.Get("traceparent"))
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":null}`))
	}))
	defer snowLuma.Close()
	u, _ := url.Parse(snowLuma.URL)
	stage := bind.New(onebot.New(u, "", onebot.StreamTimeouts{}), slot.NewPool(1, time.Second))

	c := stagetest.Call(stagetest.Query, "get_status", "")
	c.Span = stagetest.Span
	handler := func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		_, err := c.OneBot.Do(ctx, c.Action.Name, c.Params)
		return &pipeline.Result{}, err
	}
	o := stagetest.Run(context.Background(), stage, c, handler)
	fmt.Println("error:", o.Err)
	// Output:
	// SnowLuma got traceparent 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
	// error: <nil>
}
