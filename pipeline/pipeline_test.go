package pipeline_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

func recorder(name string, log *[]string) pipeline.Stage {
	return stageFunc(func(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
		return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			*log = append(*log, "in:"+name)
			r, err := next(ctx, c)
			*log = append(*log, "out:"+name)
			return r, err
		}
	})
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
			var stages []pipeline.Stage
			for _, n := range tt.stages {
				stages = append(stages, recorder(n, &log))
			}
			h := pipeline.Chain(stages...)(&pipeline.Tool{Spec: pipeline.Spec{Name: "t"}}, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				log = append(log, "handler")
				return &pipeline.Result{Payload: 1}, nil
			})
			r, err := h(context.Background(), &pipeline.Call{})
			require.NoError(t, err)
			assert.Equal(t, 1, r.Payload)
			assert.Equal(t, tt.want, log)
		})
	}
}

func TestStagesSeeTheToolAtRegistration(t *testing.T) {
	t.Parallel()
	var seen []string
	skip := stageFunc(func(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
		seen = append(seen, t.Name)
		if !t.AsksInput {
			return next
		}
		return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			return &pipeline.Result{Payload: "asked"}, nil
		}
	})
	handler := func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		return &pipeline.Result{Payload: "ran"}, nil
	}
	plain := pipeline.Chain(skip)(&pipeline.Tool{Spec: pipeline.Spec{Name: "plain"}}, handler)
	asking := pipeline.Chain(skip)(&pipeline.Tool{Spec: pipeline.Spec{Name: "asking", AsksInput: true}}, handler)
	assert.Equal(t, []string{"plain", "asking"}, seen, "each tool is wrapped once, when it is registered")
	r, _ := plain(context.Background(), &pipeline.Call{})
	assert.Equal(t, "ran", r.Payload)
	r, _ = asking(context.Background(), &pipeline.Call{})
	assert.Equal(t, "asked", r.Payload)
}

// TestAToolHandlerReturningNothingIsAnInternalFailure holds a tool's own
// code to the Handler contract, where it meets the pipeline, so that no
// stage or caller above checks for a missing result.
func TestAToolHandlerReturningNothingIsAnInternalFailure(t *testing.T) {
	t.Parallel()
	tl := pipeline.NewTool[struct{}, any](pipeline.Spec{Name: "empty", Mode: config.ModeDocs, Result: `{"type":"null"}`},
		func(context.Context, *pipeline.Call, *struct{}) (*pipeline.Result, error) { return nil, nil })
	r, err := tl.Handle(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tl}})
	assert.Nil(t, r)
	require.Error(t, err)
	assert.Equal(t, fault.CodeInternal, fault.CodeOf(err))
	assert.Contains(t, err.Error(), "empty returned neither a result nor an error")
}

type greeting struct {
	Text string `json:"text"`
}

// TestAToolsResultSchemaIsItsResultType: NewTool derives the result schema
// from the result type, and a payload of another type is an internal
// failure, so the schema can never describe something the tool does not
// hand out.
func TestAToolsResultSchemaIsItsResultType(t *testing.T) {
	t.Parallel()
	tool := func(payload any) *pipeline.Tool {
		return pipeline.NewTool[struct{}, greeting](pipeline.Spec{Name: "greet", Mode: config.ModeDocs},
			func(context.Context, *pipeline.Call, *struct{}) (*pipeline.Result, error) {
				return &pipeline.Result{Payload: payload}, nil
			})
	}
	var out struct {
		Properties struct{ Result json.RawMessage }
	}
	require.NoError(t, json.Unmarshal(tool(nil).OutputSchema, &out))
	assert.JSONEq(t, `{"type":["object","null"],"properties":{"text":{"type":"string"}},"required":["text"]}`, string(out.Properties.Result))

	tests := []struct {
		name    string
		payload any
		ok      bool
	}{
		{"hands out its result type", greeting{Text: "hi"}, true},
		{"hands out a pointer to it", &greeting{Text: "hi"}, true},
		{"hands out nothing", nil, true},
		{"may not hand out another type", map[string]string{"text": "hi"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tl := tool(tt.payload)
			_, err := tl.Handle(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tl}})
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			assert.Equal(t, fault.CodeInternal, fault.CodeOf(err))
			assert.ErrorContains(t, err, "greet returned a map[string]string where its result type is pipeline_test.greeting")
		})
	}

	assert.Panics(t, func() {
		pipeline.NewTool[struct{}, greeting](pipeline.Spec{Name: "twice", Mode: config.ModeDocs, Result: `{}`},
			func(context.Context, *pipeline.Call, *struct{}) (*pipeline.Result, error) { return nil, nil })
	}, "a typed result needs no hand-written schema")
	assert.Panics(t, func() {
		pipeline.NewTool[struct{}, any](pipeline.Spec{Name: "none", Mode: config.ModeDocs},
			func(context.Context, *pipeline.Call, *struct{}) (*pipeline.Result, error) { return nil, nil })
	}, "data passed through needs its schema")
}
