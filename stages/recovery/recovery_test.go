package recovery

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
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
			o := stagetest.Run(context.Background(), New(&log), stagetest.Call(stagetest.Docs, "", ""), tt.handler)
			r, err := o.Result, o.Err
			if tt.code == "" {
				require.NoError(t, err)
				assert.NotNil(t, r)
				assert.Empty(t, log.String())
				return
			}
			require.Error(t, err)
			assert.Nil(t, r)
			assert.Equal(t, tt.code, fault.CodeOf(err))
			assert.Contains(t, log.String(), "tool=list_actions")
			assert.Contains(t, err.Error(), "list_actions")
			assert.NotContains(t, log.String()+err.Error(), "secret value")
		})
	}
}

func TestRecoveryWithoutLog(t *testing.T) {
	t.Parallel()
	o := stagetest.Run(context.Background(), New(nil), stagetest.Call(stagetest.Docs, "", ""), func(context.Context, *pipeline.Call) (*pipeline.Result, error) { panic("boom") })
	assert.Equal(t, fault.CodeInternal, fault.CodeOf(o.Err))
}
