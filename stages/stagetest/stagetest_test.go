package stagetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// TestTheToolsAreShapedLikeTheServers: a stage reads a tool's name, mode
// and how it runs actions, so the kit's tools must declare what the
// server's tools of the same name do, or a stage test proves something
// about a tool that does not exist.
func TestTheToolsAreShapedLikeTheServers(t *testing.T) {
	t.Parallel()
	cfg, _, err := config.Load(func(string) string { return "" })
	require.NoError(t, err)
	server := map[string]*pipeline.Tool{}
	for _, tool := range handlers.All(&handlers.Deps{Catalog: Catalog(), Config: cfg}) {
		server[tool.Name] = tool
	}
	for _, kit := range []*pipeline.Tool{Docs, Query, Invoke, InvokeWithInput} {
		t.Run(kit.Name, func(t *testing.T) {
			t.Parallel()
			real, ok := server[kit.Name]
			require.True(t, ok, "the server has no tool %s", kit.Name)
			assert.Equal(t, real.MinMode, kit.MinMode)
			assert.Equal(t, real.Actions, kit.Actions)
			assert.Equal(t, real.AsksInput, kit.AsksInput)
			assert.Equal(t, real.Detaches, kit.Detaches)
		})
	}
}

func TestTheCatalogIsLoadedOncePerProcess(t *testing.T) {
	t.Parallel()
	assert.Same(t, Catalog(), Catalog())
	assert.Same(t, Action("get_msg"), Action("get_msg"), "every test reads the same parsed actions")
}

func TestActionRefusesANameTheCatalogLacks(t *testing.T) {
	t.Parallel()
	assert.PanicsWithValue(t, `stagetest: the catalog has no action "send_nukes"`, func() { Action("send_nukes") })
}

// TestCallsAreBuiltAsTheStagesInFrontLeaveThem: each builder gives the
// call the fields the stages before the one under test would have set,
// and no others.
func TestCallsAreBuiltAsTheStagesInFrontLeaveThem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		call       *pipeline.Call
		arguments  string // "" means none
		actionName string
		params     string // "" means nil
		action     string // the resolved action; "" means none
	}{
		{"Raw keeps the arguments as sent", Raw(Query, `{"action":"get_msg"}`), `{"action":"get_msg"}`, "", "", ""},
		{"Raw of nothing has no arguments", Raw(Docs, ""), "", "", "", ""},
		{"Ungated names the action and its params", Ungated(Query, "get_msg", `{"message_id":1}`),
			`{"action":"get_msg","params":{"message_id":1}}`, "get_msg", `{"message_id":1}`, ""},
		{"Ungated makes missing params the empty object", Ungated(Query, "get_status", ""), `{"action":"get_status"}`, "get_status", `{}`, ""},
		{"Ungated keeps a name the catalog lacks for the gate to refuse", Ungated(Invoke, "send_nukes", ""), `{"action":"send_nukes"}`, "send_nukes", `{}`, ""},
		{"Ungated of a call without an action has empty arguments", Ungated(Docs, "", ""), `{}`, "", "", ""},
		{"Call resolves the action", Call(Invoke, "send_group_msg", `{"group_id":1}`),
			`{"action":"send_group_msg","params":{"group_id":1}}`, "send_group_msg", `{"group_id":1}`, "send_group_msg"},
		{"Call resolves an alias to its target and keeps the name given", Call(Query, "get_ptt_text", ""),
			`{"action":"get_ptt_text"}`, "get_ptt_text", `{}`, "fetch_ptt_text"},
		{"Call keeps params a stage must refuse", Call(Query, "get_msg", `{`), `{"action":"get_msg","params":{}`, "get_msg", `{`, "get_msg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := tt.call
			require.NotNil(t, c.Tool)
			if tt.arguments == "" {
				assert.Nil(t, c.Arguments)
			} else {
				assert.Equal(t, tt.arguments, string(c.Arguments))
			}
			assert.Equal(t, tt.actionName, c.ActionName)
			if tt.params == "" {
				assert.Nil(t, c.Params)
			} else {
				assert.Equal(t, tt.params, string(c.Params))
			}
			if tt.action == "" {
				assert.Nil(t, c.Action)
			} else {
				require.NotNil(t, c.Action)
				assert.Equal(t, tt.action, c.Action.Name)
			}
			assert.Nil(t, c.Args, "nothing is decoded")
			assert.False(t, c.ParamsBuilt)
		})
	}
}

// refuse is a stage that refuses calls of a write action and passes the
// rest on, under a deadline.
var refuse = Func(func(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if c.Action != nil && !c.Action.ReadOnly {
			return nil, fault.Errorf(fault.CodeModeDenied, "no writes").Unsent()
		}
		ctx, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		return next(ctx, c)
	}
})

func TestRunReportsWhatTheStageDidWithTheCall(t *testing.T) {
	t.Parallel()
	t.Run("a refusal never reaches next", func(t *testing.T) {
		t.Parallel()
		o := Run(context.Background(), refuse, Call(Invoke, "send_group_msg", ""), nil)
		assert.Equal(t, fault.CodeModeDenied, fault.CodeOf(o.Err))
		assert.Nil(t, o.Result)
		assert.False(t, o.Reached())
		assert.Nil(t, o.Next)
		assert.Nil(t, o.Ctx)
	})
	t.Run("a call passed on reaches next with the call and context next got", func(t *testing.T) {
		t.Parallel()
		c := Call(Query, "get_status", "")
		o := Run(context.Background(), refuse, c, nil)
		require.NoError(t, o.Err)
		assert.Equal(t, &pipeline.Result{}, o.Result, "a nil next answers an empty result")
		assert.True(t, o.Reached())
		assert.Same(t, c, o.Next)
		_, has := o.Ctx.Deadline()
		assert.True(t, has, "next's context is the stage's, not the caller's")
	})
	t.Run("next answers what it is told", func(t *testing.T) {
		t.Parallel()
		want := &pipeline.Result{Payload: json.RawMessage(`1`)}
		o := Run(context.Background(), refuse, Call(Query, "get_status", ""), Answer(want, nil))
		assert.Same(t, want, o.Result)
		o = Run(context.Background(), refuse, Call(Query, "get_status", ""), Answer(nil, fault.Errorf(fault.CodeTimeout, "slow")))
		assert.Equal(t, fault.CodeTimeout, fault.CodeOf(o.Err))
		assert.True(t, o.Reached())
	})
}

func TestSpanIsAValidFixedTrace(t *testing.T) {
	t.Parallel()
	assert.True(t, Span.IsValid())
	assert.Equal(t, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", span.Traceparent(Span))
}

func TestSkipsTellsAStageThatReturnsNextFromOneThatWraps(t *testing.T) {
	t.Parallel()
	reads := Func(func(tool *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
		if tool.Actions == pipeline.NoActions {
			return next
		}
		return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) { return next(ctx, c) }
	})
	assert.True(t, Skips(reads, Docs))
	assert.False(t, Skips(reads, Query), "a wrap that only passes the call on still wraps")
}
