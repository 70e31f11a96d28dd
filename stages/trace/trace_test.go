package trace

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

func TestStageAddsTraceparentToResults(t *testing.T) {
	t.Parallel()
	c := stagetest.Call(stagetest.Query, "get_status", "")
	c.Meta = map[string]any{"traceparent": parent}
	o := stagetest.Run(context.Background(), New(), c, stagetest.Answer(&pipeline.Result{IsError: true}, nil))
	require.NoError(t, o.Err)
	tp := o.Result.Meta["traceparent"].(string)
	assert.Equal(t, span.Traceparent(c.Span), tp)
	assert.True(t, strings.HasPrefix(tp, "00-4bf92f3577b34da6a3ce929d0e0e4736-"))
	assert.NotEqual(t, parent, tp)
}
