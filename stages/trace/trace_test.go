package trace

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

func TestStageAddsTraceparentToResults(t *testing.T) {
	t.Parallel()
	c := &pipeline.Call{Request: pipeline.Request{Meta: map[string]any{"traceparent": parent}}}
	h := New().Wrap(&pipeline.Tool{Spec: pipeline.Spec{Name: "t"}}, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		return &pipeline.Result{IsError: true}, nil
	})
	r, err := h(context.Background(), c)
	require.NoError(t, err)
	tp := r.Meta["traceparent"].(string)
	assert.Equal(t, span.Traceparent(c.Span), tp)
	assert.True(t, strings.HasPrefix(tp, "00-4bf92f3577b34da6a3ce929d0e0e4736-"))
	assert.NotEqual(t, parent, tp)
}
