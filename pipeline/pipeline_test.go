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

// TestAToolsReplyIsTheCallsResult: where a tool's own code meets the
// pipeline, its Reply becomes the result (payload, the handler's
// diagnostics, a task handle) and an error leaves no result, so the
// Handler contract holds by type and no stage above checks it.
func TestAToolsReplyIsTheCallsResult(t *testing.T) {
	t.Parallel()
	handle := &pipeline.TaskHandle{ID: "t1"}
	tests := []struct {
		name  string
		reply pipeline.Reply[any]
		err   error
		want  *pipeline.Result
	}{
		{"a reply is the result", pipeline.Reply[any]{Payload: "hi", Diagnostics: pipeline.Diagnostics{Outcome: pipeline.OutcomeFailed}, Task: handle},
			nil, &pipeline.Result{Payload: "hi", Diagnostics: pipeline.Diagnostics{Outcome: pipeline.OutcomeFailed}, Task: handle}},
		{"an error leaves no result", pipeline.Reply[any]{Payload: "ignored"}, fault.Errorf(fault.CodeInvalidArgument, "no"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tl := pipeline.NewTool[struct{}, any](pipeline.Spec{Name: "echo", MinMode: config.ModeDocs, Result: `{}`},
				func(context.Context, *pipeline.Call, *struct{}) (pipeline.Reply[any], error) { return tt.reply, tt.err })
			r, err := tl.Handle(context.Background(), decoded(tl))
			assert.Equal(t, tt.want, r)
			assert.Equal(t, tt.err, err)
		})
	}
}

// decoded is an empty call of tl as the arguments stage leaves it.
func decoded(tl *pipeline.Tool) *pipeline.Call {
	c := &pipeline.Call{Request: pipeline.Request{Tool: tl}}
	c.Args, _ = tl.Decode(nil)
	return c
}

type greeting struct {
	Text string `json:"text"`
}

// TestAToolsResultSchemaIsItsResultType: NewTool derives the result schema
// from the result type, and the handler's Reply holds that type, so the
// schema can never describe something the tool does not hand out.
func TestAToolsResultSchemaIsItsResultType(t *testing.T) {
	t.Parallel()
	tl := pipeline.NewTool[struct{}, greeting](pipeline.Spec{Name: "greet", MinMode: config.ModeDocs},
		func(context.Context, *pipeline.Call, *struct{}) (pipeline.Reply[greeting], error) {
			return pipeline.Reply[greeting]{Payload: greeting{Text: "hi"}}, nil
		})
	var out struct {
		Properties struct{ Result json.RawMessage }
	}
	require.NoError(t, json.Unmarshal(tl.OutputSchema, &out))
	assert.JSONEq(t, `{"type":["object","null"],"properties":{"text":{"type":"string"}},"required":["text"]}`, string(out.Properties.Result))
	r, err := tl.Handle(context.Background(), decoded(tl))
	require.NoError(t, err)
	assert.Equal(t, greeting{Text: "hi"}, r.Payload)

	assert.Panics(t, func() {
		pipeline.NewTool[struct{}, greeting](pipeline.Spec{Name: "twice", MinMode: config.ModeDocs, Result: `{}`},
			func(context.Context, *pipeline.Call, *struct{}) (pipeline.Reply[greeting], error) {
				return pipeline.Reply[greeting]{}, nil
			})
	}, "a typed result needs no hand-written schema")
	assert.Panics(t, func() {
		pipeline.NewTool[struct{}, any](pipeline.Spec{Name: "none", MinMode: config.ModeDocs},
			func(context.Context, *pipeline.Call, *struct{}) (pipeline.Reply[any], error) {
				return pipeline.Reply[any]{}, nil
			})
	}, "data passed through needs its schema")
}

// TestAToolCalledWithoutItsDecodedArgumentsIsAnInternalFailure: the
// arguments stage decodes every call; a chain that skipped it is the
// server's bug, said as such, and the handler never runs on zero values.
func TestAToolCalledWithoutItsDecodedArgumentsIsAnInternalFailure(t *testing.T) {
	t.Parallel()
	ran := false
	tl := pipeline.NewTool[struct{}, any](pipeline.Spec{Name: "bare", MinMode: config.ModeDocs, Result: `{}`},
		func(context.Context, *pipeline.Call, *struct{}) (pipeline.Reply[any], error) {
			ran = true
			return pipeline.Reply[any]{}, nil
		})
	r, err := tl.Handle(context.Background(), &pipeline.Call{Request: pipeline.Request{Tool: tl, Arguments: []byte(`{}`)}})
	assert.Nil(t, r)
	assert.Equal(t, fault.CodeInternal, fault.CodeOf(err))
	assert.ErrorContains(t, err, "bare was called without its decoded arguments")
	assert.False(t, ran)
}
