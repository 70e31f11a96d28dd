package calllog

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
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
			[]string{"tool=invoke_action", "outcome=success", "kind=-", "duration_ms=1500.0"}},
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
			c := stagetest.Call(stagetest.Invoke, "send_group_msg", `{"message":"secret words"}`)
			c.Span, c.TraceNote = sc, tt.note
			stagetest.Run(context.Background(), New(&out, now), c, stagetest.Answer(tt.result, nil))
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
	question := &pipeline.Result{InputRequests: mcp.InputRequestMap{"params": &mcp.ElicitParams{Message: "?"}}}
	stagetest.Run(context.Background(), New(&out, time.Now), stagetest.Call(stagetest.InvokeWithInput, "send_group_msg", ""), stagetest.Answer(question, nil))
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
			stagetest.Run(context.Background(), New(&out, time.Now), stagetest.Call(tool, "send_group_msg", ""), stagetest.Answer(tt.result, nil))
			assert.Equal(t, tt.lines, strings.Count(out.String(), "\n"))
		})
	}
}
