package tasks

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

func TestStartAnswersWithTheHandleOfTheTaskItStarted(t *testing.T) {
	t.Parallel()
	store, _ := taskStore(t)
	runs := &pipeline.Tool{}
	runs.Name = "invoke_action"
	ended := make(chan task.Record, 1)
	run := func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil }
	runner := &Runner{Runner: task.NewRunner(store, io.Discard, func(r task.Record) {
		if r.Status.Terminal() {
			ended <- r
		}
	}), runs: runs, run: run}
	t.Cleanup(func() { runner.Stop(30 * time.Second) })
	starter := &pipeline.Tool{}
	starter.Name = "invoke_action_background"

	tests := []struct {
		name  string
		admit pipeline.Handler
		check func(t *testing.T, res mcp.Result, err error)
	}{
		{"an admitted call answers with its task's handle", func(_ context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			h, err := c.Detach(c)
			if err != nil {
				return nil, err
			}
			return &pipeline.Result{Task: h, Meta: map[string]any{"traceparent": "00-x"}}, nil
		}, func(t *testing.T, res mcp.Result, err error) {
			require.NoError(t, err)
			b, err := json.Marshal(res)
			require.NoError(t, err)
			var h map[string]any
			require.NoError(t, json.Unmarshal(b, &h))
			assert.Equal(t, "task", h["resultType"])
			assert.Equal(t, "working", h["status"])
			assert.Equal(t, map[string]any{"traceparent": "00-x"}, h["_meta"], "the admission's _meta goes with the handle")
			id, _ := h["taskId"].(string)
			_, err = store.Get(id)
			require.NoError(t, err, "the task is recorded before its handle goes out")
			select {
			case r := <-ended:
				assert.Equal(t, id, r.ID, "and runs the tool the starter Runs")
			case <-time.After(30 * time.Second):
				require.FailNow(t, "the task never ended")
			}
		}},
		{"a refused call answers with its tool error", func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
			return &pipeline.Result{IsError: true, Text: "refused"}, nil
		}, func(t *testing.T, res mcp.Result, err error) {
			require.NoError(t, err)
			r, ok := res.(*mcp.CallToolResult)
			require.True(t, ok, "%T", res)
			assert.True(t, r.IsError)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Start(tt.admit, runner)(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: starter}})
			tt.check(t, res, err)
		})
	}
}

func TestNewRunnerRunsTheOneToolTheStartersName(t *testing.T) {
	t.Parallel()
	store, _ := taskStore(t)
	tool := func(name string, runs *pipeline.Tool) *pipeline.Tool {
		tl := &pipeline.Tool{}
		tl.Name, tl.Detaches, tl.Runs = name, runs != nil, runs
		return tl
	}
	a, b := tool("invoke_action", nil), tool("other_action", nil)
	var wrapped []string
	wrap := func(t *pipeline.Tool) pipeline.Handler {
		wrapped = append(wrapped, t.Name)
		return func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil }
	}
	require.NotNil(t, NewRunner(store, io.Discard, []*pipeline.Tool{a, tool("start_a", a)}, wrap, nil))
	assert.Equal(t, []string{"invoke_action"}, wrapped, "the tool a starter Runs is wrapped, not the starter")
	assert.Panics(t, func() {
		NewRunner(store, io.Discard, []*pipeline.Tool{tool("start_a", a), tool("start_b", b)}, wrap, nil)
	}, "one runner runs one tool")
}
