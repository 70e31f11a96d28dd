package recovery

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

func TestRecovery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler pipeline.Handler
		code    fault.Code
	}{
		{"turns a panic into an internal error", func(context.Context, *pipeline.Call) (*pipeline.Result, error) { panic("secret value") }, fault.CodeInternal},
		{"turns a nil dereference into an internal error", func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
			var m map[string]*pipeline.Result
			return m["x"], m["x"].Meta["y"].(error)
		}, fault.CodeInternal},
		{"passes results through", func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "get_action"}}
			r, err := New(&log).Wrap(tool, tt.handler)(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tool}})
			if tt.code == "" {
				require.NoError(t, err)
				assert.NotNil(t, r)
				assert.Empty(t, log.String())
				return
			}
			require.Error(t, err)
			assert.Nil(t, r)
			assert.Equal(t, tt.code, fault.CodeOf(err))
			assert.Contains(t, log.String(), "tool=get_action")
			assert.Contains(t, err.Error(), "get_action")
			assert.NotContains(t, log.String()+err.Error(), "secret value")
		})
	}
}

func TestRecoveryWithoutLog(t *testing.T) {
	t.Parallel()
	tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "get_action"}}
	_, err := New(nil).Wrap(tool, func(context.Context, *pipeline.Call) (*pipeline.Result, error) { panic("boom") })(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tool}})
	assert.Equal(t, fault.CodeInternal, fault.CodeOf(err))
}
