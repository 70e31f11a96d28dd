package input

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

var tool = stagetest.InvokeWithInput

// client is a 2026-07-28 client that declares caps.
func client(caps *mcp.ClientCapabilities) pipeline.Client {
	return pipeline.NewClient(true, func() *mcp.ClientCapabilities { return caps })
}

var formCaps = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}

// send is a first attempt of send_group_msg through tl with params, from a
// client that declares caps.
func send(tl *pipeline.Tool, caps *mcp.ClientCapabilities, params string) *pipeline.Call {
	c := stagetest.Call(tl, "send_group_msg", params)
	c.Client = client(caps)
	return c
}

func TestAsking(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		tool    *pipeline.Tool
		caps    *mcp.ClientCapabilities
		params  string   // of send_group_msg
		ask     []string // fields asked for; nil means the call went through
		errCode fault.Code
	}{
		{"lets a complete call through without asking", tool, formCaps, `{"group_id":1,"message":"hi"}`, nil, ""},
		{"asks for one missing field", tool, formCaps, `{"group_id":123456789}`, []string{"message"}, ""},
		{"asks for every missing field in catalog order", tool, formCaps, "", []string{"group_id", "message"}, ""},
		{"treats an empty elicitation capability as form", tool, &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}, `{"group_id":1}`, []string{"message"}, ""},
		{"refuses a client without elicitation", tool, &mcp.ClientCapabilities{}, `{"group_id":1}`, nil, fault.CodeUnsupported},
		{"refuses a client that declared no capabilities", tool, nil, `{"group_id":1}`, nil, fault.CodeUnsupported},
		{"refuses a URL-only client", tool, &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}, `{"group_id":1}`, nil, fault.CodeUnsupported},
		{"refuses a key SnowLuma would drop before asking", tool, formCaps, `{"group":1,"text":"hi"}`, nil, fault.CodeInvalidArgument},
		{"never asks for the plain tools", stagetest.Invoke, formCaps, "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := stagetest.Run(context.Background(), New(prompt.NewStore(time.Now)), send(tt.tool, tt.caps, tt.params), nil)
			if tt.errCode == fault.CodeInvalidArgument {
				require.Error(t, o.Err)
				assert.Equal(t, tt.errCode, fault.CodeOf(o.Err))
				assert.Contains(t, o.Err.Error(), `"group" (did you mean group_id?)`)
				assert.True(t, fault.NothingSent(o.Err))
				assert.False(t, o.Reached())
				return
			}
			if tt.errCode != "" {
				require.Error(t, o.Err)
				assert.Equal(t, tt.errCode, fault.CodeOf(o.Err))
				assert.Contains(t, o.Err.Error(), "invoke_action with complete params")
				assert.Contains(t, fault.NextOf(o.Err), "Ask the user in the chat for message", "the fix is the plain tool, the params asked in chat")
				assert.Contains(t, fault.NextOf(o.Err), "call invoke_action with complete params")
				assert.True(t, fault.NothingSent(o.Err))
				assert.False(t, o.Reached())
				return
			}
			require.NoError(t, o.Err)
			r := o.Result
			if tt.ask == nil {
				assert.True(t, o.Reached())
				assert.Empty(t, r.InputRequests)
				return
			}
			assert.False(t, o.Reached(), "nothing runs before the answer")
			require.Contains(t, r.InputRequests, Key)
			p := r.InputRequests[Key].(*mcp.ElicitParams)
			assert.Equal(t, "form", p.Mode)
			for _, f := range tt.ask {
				assert.Contains(t, p.Message, f)
			}
			schema := p.RequestedSchema.(map[string]any)
			assert.Equal(t, []string{Field}, schema["required"])
			assert.NotEmpty(t, r.RequestState)
			assert.Equal(t, pipeline.OutcomeUnknown, r.Diagnostics.Outcome)
		})
	}
}

func TestInputSkips(t *testing.T) {
	t.Parallel()
	built := stagetest.Call(tool, "upload_file_stream", "")
	built.Params, built.ParamsBuilt = nil, true
	tests := []struct {
		name string
		call *pipeline.Call
	}{
		{"lets built params through without asking", built},
		{"lets a call without an action through", stagetest.Call(tool, "", "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.call.Client = client(formCaps)
			o := stagetest.Run(context.Background(), New(prompt.NewStore(time.Now)), tt.call, nil)
			require.NoError(t, o.Err)
			assert.True(t, o.Reached())
			assert.Empty(t, o.Result.InputRequests)
		})
	}
}

func TestInputLeavesToolsThatDoNotAskAlone(t *testing.T) {
	t.Parallel()
	assert.True(t, stagetest.Skips(New(prompt.NewStore(time.Now)), stagetest.Invoke), "the stage returns next unchanged")
}

func TestResuming(t *testing.T) {
	t.Parallel()
	const params = `{"group_id":123456789}`
	accept := func(text any) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{Field: text}}
	}
	tests := []struct {
		name    string
		answer  mcp.InputResponse
		params  string // params that reached the handler
		errCode fault.Code
		errText string
	}{
		{"merges an accepted answer", accept(`{"message":"Hello"}`), `{"group_id":123456789,"message":"Hello"}`, "", ""},
		{"accepts segment arrays", accept(`{"message":[{"type":"text","data":{"text":"hi"}}]}`), `{"group_id":123456789,"message":[{"type":"text","data":{"text":"hi"}}]}`, "", ""},
		{"runs nothing on decline", &mcp.ElicitResult{Action: "decline"}, "", fault.CodeInputDeclined, "the form asking for message was declined, by the user or by a host that answers forms without showing them; send_group_msg was not executed"},
		{"runs nothing on cancel", &mcp.ElicitResult{Action: "cancel"}, "", fault.CodeInputDeclined, "the form asking for message was cancelled, by the user or by a host"},
		{"refuses an unknown elicitation action", &mcp.ElicitResult{Action: "later"}, "", fault.CodeInvalidArgument, "unknown elicitation action"},
		{"refuses invalid JSON", accept(`{"message":`), "", fault.CodeInvalidArgument, "must hold one JSON object"},
		{"refuses a JSON array", accept(`["Hello"]`), "", fault.CodeInvalidArgument, "must hold one JSON object"},
		{"refuses a missing field", accept(`{}`), "", fault.CodeInvalidArgument, "missing properties"},
		{"refuses an extra field", accept(`{"message":"hi","auto_escape":true}`), "", fault.CodeInvalidArgument, "additional properties"},
		{"refuses overwriting a provided field", accept(`{"message":"hi","group_id":987654321}`), "", fault.CodeInvalidArgument, "additional properties"},
		{"refuses overwriting the action", accept(`{"message":"hi","action":"delete_msg"}`), "", fault.CodeInvalidArgument, `does not read the parameter "action"`},
		{"names the nearest name for a misspelt answer key", accept(`{"mesage":"hi"}`), "", fault.CodeInvalidArgument, `"mesage" (did you mean message?)`},
		{"refuses a non-string answer", accept(42), "", fault.CodeInvalidArgument, "no params_json string"},
		{"refuses a missing answer", nil, "", fault.CodeInvalidArgument, "carries no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			store := prompt.NewStore(time.Now)
			var got json.RawMessage
			h := New(store).Wrap(tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				got = c.Params
				return &pipeline.Result{}, nil
			})
			first, err := h(context.Background(), send(tool, formCaps, params))
			require.NoError(t, err)
			require.NotEmpty(t, first.RequestState)
			retry := func() *pipeline.Call {
				c := send(tool, formCaps, params)
				c.Resume = &pipeline.Resume{State: first.RequestState}
				if tt.answer != nil {
					c.Resume.Responses = mcp.InputResponseMap{Key: tt.answer}
				}
				return c
			}
			c := retry()
			_, err = h(context.Background(), c)
			if tt.errCode != "" {
				require.Error(t, err)
				assert.Equal(t, tt.errCode, fault.CodeOf(err))
				assert.Contains(t, err.Error(), tt.errText)
				assert.Nil(t, got, "nothing was executed")
				if tt.errCode == fault.CodeInputDeclined {
					// A host may answer alone: never claim the user chose it.
					assert.NotContains(t, err.Error(), "user chose")
					assert.True(t, fault.NothingSent(err))
					assert.Equal(t, "Nothing was executed. If the user wants it, ask them in the chat for message (get_action send_group_msg says what each means), then call again with it in params.", fault.NextOf(err))
				}
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, tt.params, string(got))
			assert.JSONEq(t, `{"action":"send_group_msg","params":`+params+`}`, string(c.Arguments), "the answer goes into the params, not the arguments")
			got = nil
			_, err = h(context.Background(), retry())
			assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err), "a replay executes nothing")
			assert.Nil(t, got)
		})
	}
}

func TestResumingChecksTheState(t *testing.T) {
	t.Parallel()
	const params = `{"group_id":123456789}`
	answer := mcp.InputResponseMap{Key: &mcp.ElicitResult{Action: "accept", Content: map[string]any{Field: `{"message":"Hello"}`}}}
	tests := []struct {
		name   string
		state  func(issued string) string
		params string // of the retry
		tool   *pipeline.Tool
	}{
		{"refuses a tampered state", func(s string) string { return s + "x" }, params, tool},
		{"refuses a state from another server run", func(string) string {
			other, err := prompt.NewStore(time.Now).Issue(tool.Name, send(tool, formCaps, params).Arguments, []string{"message"})
			require.NoError(t, err)
			return other
		}, params, tool},
		{"refuses a state bound to other arguments", func(s string) string { return s }, `{"group_id":987654321}`, tool},
		{"refuses a state bound to another tool", func(s string) string { return s }, params,
			&pipeline.Tool{Spec: pipeline.Spec{Name: "query_action_with_input", MinMode: config.ModeRead, Actions: pipeline.ReadActions, AsksInput: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			store := prompt.NewStore(time.Now)
			reached := false
			next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			}
			first, err := New(store).Wrap(tool, next)(context.Background(), send(tool, formCaps, params))
			require.NoError(t, err)
			c := send(tt.tool, formCaps, tt.params)
			c.Resume = &pipeline.Resume{State: tt.state(first.RequestState), Responses: answer}
			_, err = New(store).Wrap(tt.tool, next)(context.Background(), c)
			require.Error(t, err)
			assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
			assert.Contains(t, err.Error(), "nothing was executed")
			assert.False(t, reached)
		})
	}
}

func TestAskingRefusesOnceTooManyPromptsWait(t *testing.T) {
	t.Parallel()
	store := prompt.NewStore(time.Now)
	for i := 0; i < prompt.MaxPending; i++ {
		_, err := store.Issue(tool.Name, json.RawMessage(`{}`), []string{"message"})
		require.NoError(t, err)
	}
	o := stagetest.Run(context.Background(), New(store), send(tool, formCaps, `{"group_id":1}`), nil)
	require.Error(t, o.Err)
	assert.Equal(t, fault.CodeLimit, fault.CodeOf(o.Err))
	assert.True(t, fault.NothingSent(o.Err), "a prompt the store refused asked nothing and sent nothing")
	assert.Contains(t, o.Err.Error(), "prompts are already waiting")
	assert.False(t, o.Reached())
}
