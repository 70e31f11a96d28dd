package calllog

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

func TestLogLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		result *pipeline.Result
		note   string
		want   []string
	}{
		{"logs a success", &pipeline.Result{Diagnostics: pipeline.Diagnostics{Outcome: "success"}}, "",
			[]string{"tool=query_action", "outcome=success", "kind=-", "duration_ms=1500.0"}},
		{"logs the failure kind", &pipeline.Result{Diagnostics: pipeline.Diagnostics{Outcome: "unknown", Kind: "timeout"}}, "",
			[]string{"outcome=unknown", "kind=timeout"}},
		{"logs an escaped error as internal", nil, "", []string{"outcome=failed", "kind=internal"}},
		{"marks ignored trace metadata with a fixed word", &pipeline.Result{Diagnostics: pipeline.Diagnostics{Outcome: "success"}}, span.InvalidNote,
			[]string{"trace_meta=invalid_ignored"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			clock := time.Unix(100, 0)
			now := func() time.Time { clock = clock.Add(1500 * time.Millisecond); return clock }
			sc, _ := span.Start(nil)
			tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "query_action"}}
			c := &pipeline.Call{Request: pipeline.Request{Tool: tool, Arguments: json.RawMessage(`{"action":"send_group_msg","params":{"message":"secret words"}}`)}, Resolved: pipeline.Resolved{Span: sc, TraceNote: tt.note, ActionName: "send_group_msg", Params: json.RawMessage(`{"message":"secret words"}`)}}
			h := New(&out, now).Wrap(tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) { return tt.result, nil })
			_, _ = h(context.Background(), c)
			line := out.String()
			require.Equal(t, 1, strings.Count(line, "\n"), "exactly one line per call")
			assert.Contains(t, line, "traceparent="+span.Traceparent(sc))
			for _, w := range tt.want {
				assert.Contains(t, line, w)
			}
			if tt.note == "" {
				assert.NotContains(t, line, "trace_meta")
			}
			assert.NotContains(t, line, "secret words")
			assert.NotContains(t, line, "send_group_msg")
		})
	}
}

func TestNoLineForAQuestion(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action_with_input"}}
	h := New(&out, time.Now).Wrap(tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		return &pipeline.Result{InputRequests: mcp.InputRequestMap{"params": &mcp.ElicitParams{Message: "?"}}}, nil
	})
	_, _ = h(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tool}})
	assert.Empty(t, out.String(), "the line is written when the call completes")
}

func TestNoLineForAnAdmittedTaskButOneForARefusal(t *testing.T) {
	t.Parallel()
	tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action_background", Detaches: true}}
	tests := []struct {
		name   string
		result *pipeline.Result
		lines  int
	}{
		{"an admitted call leaves its line to the task's run", &pipeline.Result{Task: &pipeline.TaskHandle{ID: "t1"}}, 0},
		{"a refused admission has no run, so it writes the line", &pipeline.Result{IsError: true, Diagnostics: pipeline.Diagnostics{Outcome: "failed", Kind: "unknown_action"}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			h := New(&out, time.Now).Wrap(tool, func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return tt.result, nil })
			_, _ = h(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tool}})
			assert.Equal(t, tt.lines, strings.Count(out.String(), "\n"))
		})
	}
}
