package stages

import (
	"context"
	"encoding/json"
	"io"
	"path"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

func docsDeps(t *testing.T) Deps {
	t.Helper()
	return Deps{Config: &config.Config{Mode: config.ModeDocs, Timeout: time.Minute}, Catalog: stagetest.Catalog(),
		Prompts: prompt.NewStore(time.Now), Slots: slot.NewPool(1, time.Second), Log: io.Discard, Now: time.Now,
		Content: content.New(nil)}
}

// stageName is the name of the package that declares s: a stage is named
// by its package, and its place says the same name. A stage that keeps
// state may be a pointer; its package is its element type's.
func stageName(s pipeline.Stage) string {
	t := reflect.TypeOf(s)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return path.Base(t.PkgPath())
}

// TestTheChainsRunInThePinnedOrder builds the chains and holds them to
// places, the one list of the order: every call's chain is every place,
// and a background call's admission the places that Admit, in that order.
// The admission passes the checks that refuse a call before a task exists,
// what shapes the answer, and calllog, which records a refusal; whatever
// spends acts in the work (TestBackgroundCallsSpendOnce counts it).
func TestTheChainsRunInThePinnedOrder(t *testing.T) {
	t.Parallel()
	var call, admission []string
	for _, p := range Places() {
		call = append(call, p.Name)
		if p.Admits {
			admission = append(admission, p.Name)
		}
	}
	chains := Default(docsDeps(t))
	var built, admitted []string
	for _, s := range chains.Call {
		built = append(built, stageName(s))
	}
	for _, s := range chains.Admission {
		admitted = append(admitted, stageName(s))
	}
	assert.Equal(t, call, built, "every call's chain")
	assert.Equal(t, admission, admitted, "a background call's admission")
}

// TestEveryPlaceSaysWhyAndBuildsTheStageItNames holds the table the docs
// are generated from to the stages it builds.
func TestEveryPlaceSaysWhyAndBuildsTheStageItNames(t *testing.T) {
	t.Parallel()
	d := docsDeps(t)
	for _, p := range Places() {
		assert.NotEmpty(t, p.Does, p.Name)
		assert.NotEmpty(t, p.Why, p.Name)
		assert.Equal(t, p.Admits, p.AdmitsWhy != "", "%s: a reason exactly when the admission passes it", p.Name)
		assert.Equal(t, p.Name, stageName(p.New(d)))
	}
}

func TestHandlersWrapEachToolOnce(t *testing.T) {
	t.Parallel()
	wraps := map[string]int{}
	counting := stagetest.Func(func(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
		wraps[t.Name]++
		return next
	})
	run := pipeline.NewTool[pageArgs, any](pipeline.Spec{Name: "run", MinMode: config.ModeDocs, Result: `{"type":["object","null"]}`},
		func(context.Context, *pipeline.Call, *pageArgs) (pipeline.Reply[any], error) {
			return pipeline.Reply[any]{}, nil
		})
	bg := pipeline.NewTool[pageArgs, any](pipeline.Spec{Name: "run_background", MinMode: config.ModeDocs, Detaches: true, Runs: run, Result: `{"type":["object","null"]}`},
		func(context.Context, *pipeline.Call, *pageArgs) (pipeline.Reply[any], error) {
			return pipeline.Reply[any]{}, nil
		})
	handler := Handlers(Chains{Call: []pipeline.Stage{counting}, Admission: []pipeline.Stage{counting}})
	for range 3 {
		handler(run)
		handler(bg)
	}
	assert.Equal(t, map[string]int{"run": 1, "run_background": 1}, wraps, "a synchronous call and a task's run share one wrapped handler")
}

type pageArgs struct {
	Limit schema.Int `json:"limit,omitempty" schema:"minimum=1"`
}

type targetArgs struct {
	Action string        `json:"action"`
	Params schema.Object `json:"params,omitempty"`
}

func (a *targetArgs) Target() (string, json.RawMessage, bool) {
	return a.Action, json.RawMessage(a.Params), false
}

func TestDefaultChainInDocsMode(t *testing.T) {
	t.Parallel()
	chain := pipeline.Chain(Default(docsDeps(t)).Call...)
	docs := pipeline.NewTool[pageArgs, any](pipeline.Spec{Name: "list_things", MinMode: config.ModeDocs, Result: `{"type":["object","null"]}`},
		func(_ context.Context, c *pipeline.Call, a *pageArgs) (pipeline.Reply[any], error) {
			return pipeline.Reply[any]{Payload: map[string]any{"limit": a.Limit}}, nil
		})
	query := pipeline.NewTool[targetArgs, any](pipeline.Spec{Name: "query_action", MinMode: config.ModeRead, Actions: pipeline.ReadActions, Result: `{"type":["object","null"]}`},
		func(context.Context, *pipeline.Call, *targetArgs) (pipeline.Reply[any], error) {
			panic("a tool the mode forbids never runs")
		})
	tests := []struct {
		name    string
		tool    *pipeline.Tool
		args    string
		isError bool
		kind    string
		payload string
	}{
		{"runs a docs tool and encodes its payload", docs, `{"limit":3.0}`, false, "", `{"limit":3}`},
		{"turns invalid arguments into a tool error", docs, `{"limit":0}`, true, string(fault.CodeInvalidArgument), ""},
		{"refuses a read tool in docs mode", query, `{"action":"get_status"}`, true, string(fault.CodeModeDenied), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := chain(tt.tool, tt.tool.Handle)
			r, err := h(context.Background(), stagetest.Raw(tt.tool, tt.args))
			require.NoError(t, err, "the diagnostics stage never lets an error escape")
			require.NotNil(t, r)
			assert.NotEmpty(t, r.Meta["traceparent"], "every result carries its traceparent")
			assert.Equal(t, tt.isError, r.IsError)
			assert.Equal(t, tt.kind, r.Diagnostics.Kind)
			if !tt.isError {
				assert.Equal(t, pipeline.OutcomeSuccess, r.Diagnostics.Outcome)
				require.IsType(t, json.RawMessage{}, r.Payload)
				assert.JSONEq(t, tt.payload, string(r.Payload.(json.RawMessage)))
			}
		})
	}
}

type countArgs struct {
	Upto schema.Int `json:"upto" schema:"minimum=1"`
}

// TestTheChainRunsDetachedFromAnyRequest runs the whole default chain the
// way a background task does: a Call built by hand (no MCP request behind
// it), its own context, progress going to a record instead of a session,
// and the result rendered by the same pipeline.Render as tools/call.
func TestTheChainRunsDetachedFromAnyRequest(t *testing.T) {
	t.Parallel()
	counter := pipeline.NewTool[countArgs, any](pipeline.Spec{Name: "count", MinMode: config.ModeDocs, Result: `{"type":["integer","null"]}`},
		func(ctx context.Context, c *pipeline.Call, a *countArgs) (pipeline.Reply[any], error) {
			for i := int64(1); i <= int64(a.Upto); i++ {
				c.Progress(i, int64(a.Upto))
			}
			return pipeline.Reply[any]{Payload: a.Upto}, nil
		})
	var record [][2]int64
	c := &pipeline.Call{Request: pipeline.Request{Arguments: json.RawMessage(`{"upto":3}`), Meta: map[string]any{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}, Hooks: pipeline.Hooks{Notify: func(_ context.Context, done, total int64) error {
		record = append(record, [2]int64{done, total})
		return nil
	}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := pipeline.Chain(Default(docsDeps(t)).Call...)(counter, counter.Handle)
	r, err := h(ctx, c)
	require.NoError(t, err)
	res := pipeline.Render(r)
	assert.False(t, res.IsError)
	assert.Equal(t, json.RawMessage("3"), r.Payload)
	require.NotEmpty(t, record, "progress reached the record")
	assert.Equal(t, [2]int64{1, 3}, record[0], "the first value goes out at once")
	for i, v := range record {
		// A later value goes out only if the loop stalled past the
		// interval; the end of the count never does.
		assert.Less(t, v[0], v[1], "the end of the count is the result's to report, never progress")
		if i > 0 {
			assert.Greater(t, v[0], record[i-1][0], "values only grow")
		}
	}
	assert.Contains(t, res.Meta["traceparent"], "4bf92f3577b34da6a3ce929d0e0e4736", "the caller's trace carries over")
}
