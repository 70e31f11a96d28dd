// Package stagetest is the kit the stages' tests and examples share, so
// that a stage's test says what the stage does to one call and nothing
// else. Before it, each stage package declared its own copies of the
// server's tools, loaded the catalog again in every test, and spelled out
// a pipeline.Call literal and a recording next handler for every case.
//
// A test builds the call as the stages in front of the one under test
// leave it (Raw before arguments, Ungated before the gate, Call after it),
// and Run wraps the stage around a fake next handler and reports what came
// out and whether, and with what, the stage called next.
//
// It is for tests only: nothing outside a _test.go file imports it. It
// imports no stage, so every stage's tests may use it.
package stagetest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"go.opentelemetry.io/otel/trace"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// The server's tools as the stages see them: the name, the least mode and
// how they run actions (TestTheToolsAreShapedLikeTheServers holds them to
// package handlers). They have no argument type and no handler, so they
// serve the stages after arguments. Do not change them: a test that needs
// another policy declares its own tool.
var (
	// Docs is list_actions: docs mode, runs no actions.
	Docs = &pipeline.Tool{Spec: pipeline.Spec{Name: "list_actions", MinMode: config.ModeDocs, Actions: pipeline.NoActions}}
	// Query is query_action: read mode, read-only actions.
	Query = &pipeline.Tool{Spec: pipeline.Spec{Name: "query_action", MinMode: config.ModeRead, Actions: pipeline.ReadActions}}
	// Invoke is invoke_action: write mode, any action.
	Invoke = &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", MinMode: config.ModeWrite, Actions: pipeline.AnyAction}}
	// InvokeWithInput is invoke_action_with_input: invoke_action that may
	// ask the user for missing required params.
	InvokeWithInput = &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action_with_input", MinMode: config.ModeWrite, Actions: pipeline.AnyAction, AsksInput: true}}
)

// Span is a fixed span context, so that what a stage writes of a call's
// trace (a log line, a header) reads the same in every run.
var Span = trace.NewSpanContext(trace.SpanContextConfig{
	TraceID:    trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
	SpanID:     trace.SpanID{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7},
	TraceFlags: trace.FlagsSampled,
})

// loaded is the bundled catalog, loaded once per process however many
// tests ask (it parses on first use, which is what costs).
var loaded = sync.OnceValue(func() *catalog.Catalog {
	cat, err := catalog.Load()
	if err != nil {
		panic("stagetest: the bundled catalog does not load: " + err.Error())
	}
	return cat
})

// Catalog is the bundled catalog, the same value for every caller in the
// process.
func Catalog() *catalog.Catalog { return loaded() }

// Action is the bundled catalog's action of that name or alias. A name the
// catalog lacks is a broken test, not a case to handle: it panics, naming
// the name.
func Action(name string) *catalog.Action {
	a, ok := Catalog().Lookup(name)
	if !ok {
		panic(fmt.Sprintf("stagetest: the catalog has no action %q", name))
	}
	return a
}

// Raw is a call as its starter hands it to the chain: the tool and its
// arguments as sent, nothing decoded or resolved (what the arguments stage
// and the stages outside it get).
func Raw(tool *pipeline.Tool, arguments string) *pipeline.Call {
	c := &pipeline.Call{Request: pipeline.Request{Tool: tool}}
	if arguments != "" {
		c.Arguments = json.RawMessage(arguments)
	}
	return c
}

// Ungated is a call of tool as the arguments stage leaves it, before the
// gate: it names action ("" for none) with params as JSON, and nothing is
// resolved. Its arguments are {"action": action, "params": params}, as an
// agent would send them. Missing params of a named action are the empty
// object, as the arguments stage makes them; params are not checked, so a
// test may give ones the stage under test must refuse.
func Ungated(tool *pipeline.Tool, action, params string) *pipeline.Call {
	c := Raw(tool, arguments(action, params))
	c.ActionName = action
	if params == "" && action != "" {
		params = "{}"
	}
	if params != "" {
		c.Params = json.RawMessage(params)
	}
	return c
}

// Call is a call of tool as the gate leaves it: Ungated, with the catalog
// action it names resolved (see Action; none when action is "").
func Call(tool *pipeline.Tool, action, params string) *pipeline.Call {
	c := Ungated(tool, action, params)
	if action != "" {
		c.Action = Action(action)
	}
	return c
}

// arguments spells the tool arguments that name action and params.
func arguments(action, params string) string {
	out := "{"
	if action != "" {
		name, _ := json.Marshal(action)
		out += `"action":` + string(name)
	}
	if params != "" {
		if action != "" {
			out += ","
		}
		out += `"params":` + params
	}
	return out + "}"
}

// Outcome is what one call through a stage came to.
type Outcome struct {
	// Result and Err are what the stage returned.
	Result *pipeline.Result
	Err    error
	// Next is the call the stage passed to next; nil when it did not
	// call next (it refused, answered itself, or panicked first).
	Next *pipeline.Call
	// Ctx is the context next ran under (its deadline, its values); nil
	// when next did not run.
	Ctx context.Context
}

// Reached reports whether the stage called next.
func (o Outcome) Reached() bool { return o.Next != nil }

// Run wraps stage around next for c's tool, as registration does, runs c
// through it under ctx, and reports the outcome. A nil next answers with an
// empty result. Run wraps anew on every call; a test of what a stage keeps
// between calls wraps once itself.
func Run(ctx context.Context, stage pipeline.Stage, c *pipeline.Call, next pipeline.Handler) Outcome {
	if next == nil {
		next = Answer(&pipeline.Result{}, nil)
	}
	var o Outcome
	h := stage.Wrap(c.Tool, func(ctx context.Context, got *pipeline.Call) (*pipeline.Result, error) {
		o.Next, o.Ctx = got, ctx
		return next(ctx, got)
	})
	o.Result, o.Err = h(ctx, c)
	return o
}

// Answer is a next handler that answers every call with r and err.
func Answer(r *pipeline.Result, err error) pipeline.Handler {
	return func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return r, err }
}

// Skips reports whether stage returns next itself when it wraps tool: a
// stage with nothing to do for a tool adds nothing to its calls, not even
// a check that passes.
func Skips(stage pipeline.Stage, tool *pipeline.Tool) bool {
	next := Answer(&pipeline.Result{}, nil)
	return reflect.ValueOf(stage.Wrap(tool, next)).Pointer() == reflect.ValueOf(next).Pointer()
}

// Func makes a stage of a wrapping function, for a test's stage that keeps
// no state beyond what the function closes over (the server's own stages
// are each a package's type).
type Func func(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler

// Wrap implements pipeline.Stage.
func (f Func) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler { return f(t, next) }
