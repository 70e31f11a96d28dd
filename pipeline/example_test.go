package pipeline_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/payload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// shoutArgs is the argument type of the example tool: its struct is the
// input schema and the value the handler reads.
type shoutArgs struct {
	Text  string `json:"text" jsonschema:"what to shout" schema:"minLength=1"`
	Times int    `json:"times,omitempty" jsonschema:"how often" schema:"minimum=1,maximum=3"`
}

// shout declares a tool once: its name, mode, policy, result schema and
// handler. Stages read the declaration when they wrap it.
func shout() *pipeline.Tool {
	return pipeline.NewTool[shoutArgs, string](pipeline.Spec{
		Name:        "shout",
		Description: "Repeats text in capitals.",
		MinMode:     config.ModeDocs, // offered in every mode; runs no actions
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(ctx context.Context, c *pipeline.Call, args *shoutArgs) (pipeline.Reply[string], error) {
		return pipeline.Reply[string]{Payload: strings.Repeat(strings.ToUpper(args.Text), max(args.Times, 1))}, nil
	})
}

// Declaring a tool: pipeline.NewTool derives the input schema from the
// argument struct and decodes arguments into it; the handler does its one
// job.
func Example_declareTool() {
	t := shout()
	fmt.Println(string(t.InputSchema))
	c := &pipeline.Call{Request: pipeline.Request{Tool: t, Arguments: []byte(`{"text":"hi","times":2}`)}}
	c.Args, _ = t.Decode(c.Arguments) // what the arguments stage does
	r, _ := t.Handle(context.Background(), c)
	fmt.Println(r.Payload)
	// Output:
	// {"additionalProperties":false,"properties":{"text":{"description":"what to shout","minLength":1,"type":"string"},"times":{"description":"how often","maximum":3,"minimum":1,"type":"integer"}},"required":["text"],"type":"object"}
	// HIHI
}

// quiet is an example stage: it refuses calls in quiet hours. A stage reads
// the tool's declaration once, in Wrap, and returns next unchanged for the
// tools it has nothing to do with. Where it runs is stages/order.go's to
// say (it refuses before anything is spent, so a background call's
// admission could pass it too).
type quiet struct{ hours bool }

func (q quiet) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if t.MinMode == config.ModeDocs {
		return next // reading docs is never too loud
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if q.hours {
			return nil, fault.Errorf(fault.CodeLimit, "%s waits until morning", t.Name).Unsent()
		}
		return next(ctx, c)
	}
}

// diagnose is a minimal stand-in for the diagnostics stage: it turns failures
// into results with pipeline.Failure and encodes payloads for
// pipeline.Render.
var diagnose = stageFunc(func(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		r, err := next(ctx, c)
		if err != nil {
			return pipeline.Failure(c, err), nil
		}
		r.Payload, _ = payload.Encode(r.Payload)
		return r, nil
	}
})

// Composing stages: pipeline.Chain wraps a tool's handler once, at
// registration, with the first stage outermost; pipeline.Render makes the MCP
// result.
func Example_composeStages() {
	chain := pipeline.Chain(diagnose, quiet{hours: true})
	docs := shout()
	loud := shout()
	loud.Name, loud.MinMode = "loud_shout", config.ModeWrite
	for _, t := range []*pipeline.Tool{docs, loud} {
		h := chain(t, t.Handle)
		c := &pipeline.Call{Request: pipeline.Request{Tool: t, Arguments: []byte(`{"text":"hi"}`)}}
		c.Args, _ = t.Decode(c.Arguments) // the arguments stage's work, in a real chain
		r, _ := h(context.Background(), c)
		res := pipeline.Render(r)
		fmt.Printf("%s: error=%v %s\n", t.Name, res.IsError, res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// shout: error=false "HI"
	// loud_shout: error=true loud_shout waits until morning
	// outcome: failed (not done)
	// kind: limit
	// next_step: The call crossed a configured limit; get_runtime_info shows the effective limits.
}
