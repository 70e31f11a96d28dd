package pipeline

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func recorder(name string, log *[]string) Stage {
	return StageFunc{StageName: name, WrapFunc: func(_ *Tool, next Handler) Handler {
		return func(ctx context.Context, c *Call) (*Result, error) {
			*log = append(*log, "in:"+name)
			r, err := next(ctx, c)
			*log = append(*log, "out:"+name)
			return r, err
		}
	}}
}

func TestChain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		stages []string
		want   []string
	}{
		{"runs the handler alone without stages", nil, []string{"handler"}},
		{"makes the first stage outermost", []string{"a", "b"}, []string{"in:a", "in:b", "handler", "out:b", "out:a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log []string
			var stages []Stage
			for _, n := range tt.stages {
				stages = append(stages, recorder(n, &log))
			}
			h := Chain(stages...)(&Tool{Spec: Spec{Name: "t"}}, func(ctx context.Context, c *Call) (*Result, error) {
				log = append(log, "handler")
				return &Result{Payload: 1}, nil
			})
			r, err := h(context.Background(), &Call{})
			require.NoError(t, err)
			assert.Equal(t, 1, r.Payload)
			assert.Equal(t, tt.want, log)
		})
	}
}

func TestStagesSeeTheToolAtRegistration(t *testing.T) {
	t.Parallel()
	var seen []string
	skip := StageFunc{StageName: "only-input", WrapFunc: func(t *Tool, next Handler) Handler {
		seen = append(seen, t.Name)
		if !t.AsksInput {
			return next
		}
		return func(ctx context.Context, c *Call) (*Result, error) { return &Result{Payload: "asked"}, nil }
	}}
	handler := func(context.Context, *Call) (*Result, error) { return &Result{Payload: "ran"}, nil }
	plain := Chain(skip)(&Tool{Spec: Spec{Name: "plain"}}, handler)
	asking := Chain(skip)(&Tool{Spec: Spec{Name: "asking", AsksInput: true}}, handler)
	assert.Equal(t, []string{"plain", "asking"}, seen, "each tool is wrapped once, when it is registered")
	r, _ := plain(context.Background(), &Call{})
	assert.Equal(t, "ran", r.Payload)
	r, _ = asking(context.Background(), &Call{})
	assert.Equal(t, "asked", r.Payload)
}
