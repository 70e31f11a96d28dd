package pipeline

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// failing is a stage that fails with err before calling next, or passes.
func failing(name string, err error) Stage {
	return StageFunc{StageName: name, WrapFunc: func(_ *Tool, next Handler) Handler {
		return func(ctx context.Context, c *Call) (*Result, error) {
			if err != nil {
				return nil, err
			}
			return next(ctx, c)
		}
	}}
}

// wrapping is a stage that wraps whatever fails inside it in a failure of
// its own.
func wrapping(name string) Stage {
	return StageFunc{StageName: name, WrapFunc: func(_ *Tool, next Handler) Handler {
		return func(ctx context.Context, c *Call) (*Result, error) {
			r, err := next(ctx, c)
			if err != nil {
				return nil, fault.Wrap(fault.CodeInternal, "", err, "wrapped")
			}
			return r, nil
		}
	}}
}

func TestChainNamesTheStageThatFailed(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	resolveInHandler := func(context.Context, *Call) (*Result, error) {
		_, err := Resolve(cat, "no_such_action", AnyAction)
		return nil, err
	}
	resolveInGate := StageFunc{StageName: "gate", WrapFunc: func(_ *Tool, next Handler) Handler {
		return func(ctx context.Context, c *Call) (*Result, error) {
			if _, err := Resolve(cat, "no_such_action", AnyAction); err != nil {
				return nil, err
			}
			return next(ctx, c)
		}
	}}
	ok := func(context.Context, *Call) (*Result, error) { return &Result{}, nil }
	tests := []struct {
		name    string
		stages  []Stage
		handler Handler
		want    string
	}{
		{"a stage's own failure carries its name", []Stage{failing("outer", nil), failing("inner", fault.Errorf(fault.CodeLimit, "", "busy"))}, ok, "inner"},
		{"a handler's failure is the handler's", []Stage{failing("outer", nil)}, func(context.Context, *Call) (*Result, error) {
			return nil, fault.Errorf(fault.CodeInvalidArgument, "", "bad")
		}, HandlerStage},
		{"Resolve called by the gate is the gate's", []Stage{resolveInGate}, ok, "gate"},
		{"Resolve called by a handler is the handler's", []Stage{failing("gate", nil)}, resolveInHandler, HandlerStage},
		{"a stage that wraps an inner failure names its own", []Stage{wrapping("outer"), failing("inner", fault.Errorf(fault.CodeLimit, "", "busy"))}, ok, "outer"},
		{"a domain part that names itself keeps its name", []Stage{failing("outer", nil)}, func(context.Context, *Call) (*Result, error) {
			return nil, fault.Errorf(fault.CodeTransport, "http", "refused")
		}, "http"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Chain(tt.stages...)(&Tool{}, tt.handler)(context.Background(), &Call{})
			var fe *fault.Error
			require.True(t, errors.As(err, &fe), "%v", err)
			assert.Equal(t, tt.want, fe.Stage)
		})
	}
}

func TestChainLeavesPlainErrorsAlone(t *testing.T) {
	t.Parallel()
	plain := errors.New("plain")
	_, err := Chain(failing("s", plain))(&Tool{}, nil)(context.Background(), &Call{})
	assert.Same(t, plain, err)
}
