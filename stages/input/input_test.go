package input

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

var tool = &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action_with_input", Mode: config.ModeWrite, Actions: pipeline.AnyAction, AsksInput: true}}

// client is a 2026-07-28 client that declares caps.
func client(caps *mcp.ClientCapabilities) pipeline.Client {
	return pipeline.NewClient(true, func() *mcp.ClientCapabilities { return caps })
}

var formCaps = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}

// call builds a first attempt: the raw arguments and the params they name,
// as the arguments stage leaves them.
func call(t *testing.T, tl *pipeline.Tool, action *catalog.Action, caps *mcp.ClientCapabilities, args string) *pipeline.Call {
	t.Helper()
	var a struct {
		Params json.RawMessage `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(args), &a))
	if len(a.Params) == 0 {
		a.Params = json.RawMessage("{}")
	}
	return &pipeline.Call{Request: pipeline.Request{Tool: tl, Client: client(caps), Arguments: json.RawMessage(args)}, Resolved: pipeline.Resolved{ActionName: action.Name, Action: action, Params: a.Params}}
}

func TestAsking(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	send, _ := cat.Lookup("send_group_msg")
	tests := []struct {
		name    string
		tool    *pipeline.Tool
		caps    *mcp.ClientCapabilities
		args    string
		ask     []string // fields asked for; nil means the call went through
		errCode fault.Code
	}{
		{"lets a complete call through without asking", tool, formCaps, `{"action":"send_group_msg","params":{"group_id":1,"message":"hi"}}`, nil, ""},
		{"asks for one missing field", tool, formCaps, `{"action":"send_group_msg","params":{"group_id":123456789}}`, []string{"message"}, ""},
		{"asks for every missing field in catalog order", tool, formCaps, `{"action":"send_group_msg"}`, []string{"group_id", "message"}, ""},
		{"treats an empty elicitation capability as form", tool, &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}, `{"action":"send_group_msg","params":{"group_id":1}}`, []string{"message"}, ""},
		{"refuses a client without elicitation", tool, &mcp.ClientCapabilities{}, `{"action":"send_group_msg","params":{"group_id":1}}`, nil, fault.CodeUnsupported},
		{"refuses a client that declared no capabilities", tool, nil, `{"action":"send_group_msg","params":{"group_id":1}}`, nil, fault.CodeUnsupported},
		{"refuses a URL-only client", tool, &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}, `{"action":"send_group_msg","params":{"group_id":1}}`, nil, fault.CodeUnsupported},
		{"refuses a key SnowLuma would drop before asking", tool, formCaps, `{"action":"send_group_msg","params":{"group":1,"text":"hi"}}`, nil, fault.CodeInvalidArgument},
		{"never asks for the plain tools", &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", Mode: config.ModeWrite, Actions: pipeline.AnyAction}}, formCaps, `{"action":"send_group_msg"}`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New(prompt.NewStore(time.Now)).Wrap(tt.tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			r, err := h(context.Background(), call(t, tt.tool, send, tt.caps, tt.args))
			if tt.errCode == fault.CodeInvalidArgument {
				require.Error(t, err)
				assert.Equal(t, tt.errCode, fault.CodeOf(err))
				assert.Contains(t, err.Error(), `"group" (did you mean group_id?)`)
				assert.True(t, fault.NothingSent(err))
				assert.False(t, reached)
				return
			}
			if tt.errCode != "" {
				require.Error(t, err)
				assert.Equal(t, tt.errCode, fault.CodeOf(err))
				assert.Contains(t, err.Error(), "invoke_action with complete params")
				assert.Contains(t, fault.NextOf(err), "Ask the user in the chat for message", "the fix is the plain tool, the params asked in chat")
				assert.Contains(t, fault.NextOf(err), "call invoke_action with complete params")
				assert.True(t, fault.NothingSent(err))
				assert.False(t, reached)
				return
			}
			require.NoError(t, err)
			if tt.ask == nil {
				assert.True(t, reached)
				assert.Empty(t, r.InputRequests)
				return
			}
			assert.False(t, reached, "nothing runs before the answer")
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
	cat, err := catalog.Load()
	require.NoError(t, err)
	upload, _ := cat.Lookup("upload_file_stream")
	tests := []struct {
		name string
		call *pipeline.Call
	}{
		{"lets built params through without asking", &pipeline.Call{Request: pipeline.Request{Tool: tool, Client: client(formCaps), Arguments: json.RawMessage(`{"action":"upload_file_stream","execution":{"input_file":"a.txt"}}`)}, Resolved: pipeline.Resolved{ActionName: upload.Name, Action: upload, ParamsBuilt: true}}},
		{"lets a call without an action through", &pipeline.Call{Request: pipeline.Request{Tool: tool, Client: client(formCaps), Arguments: json.RawMessage(`{}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New(prompt.NewStore(time.Now)).Wrap(tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			r, err := h(context.Background(), tt.call)
			require.NoError(t, err)
			assert.True(t, reached)
			assert.Empty(t, r.InputRequests)
		})
	}
}

func TestInputLeavesToolsThatDoNotAskAlone(t *testing.T) {
	t.Parallel()
	plain := &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", Mode: config.ModeWrite, Actions: pipeline.AnyAction}}
	next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return &pipeline.Result{}, nil }
	h := New(prompt.NewStore(time.Now)).Wrap(plain, next)
	assert.Equal(t, reflect.ValueOf(next).Pointer(), reflect.ValueOf(h).Pointer(), "the stage returns next unchanged")
}

func TestResuming(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	send, _ := cat.Lookup("send_group_msg")
	const args = `{"action":"send_group_msg","params":{"group_id":123456789}}`
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
		{"runs nothing on decline", &mcp.ElicitResult{Action: "decline"}, "", fault.CodeInputDeclined, "decline"},
		{"runs nothing on cancel", &mcp.ElicitResult{Action: "cancel"}, "", fault.CodeInputDeclined, "cancel"},
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
			first, err := h(context.Background(), call(t, tool, send, formCaps, args))
			require.NoError(t, err)
			require.NotEmpty(t, first.RequestState)
			retry := func() *pipeline.Call {
				c := call(t, tool, send, formCaps, args)
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
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, tt.params, string(got))
			assert.JSONEq(t, args, string(c.Arguments), "the answer goes into the params, not the arguments")
			got = nil
			_, err = h(context.Background(), retry())
			assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err), "a replay executes nothing")
			assert.Nil(t, got)
		})
	}
}

func TestResumingChecksTheState(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	send, _ := cat.Lookup("send_group_msg")
	const args = `{"action":"send_group_msg","params":{"group_id":123456789}}`
	answer := mcp.InputResponseMap{Key: &mcp.ElicitResult{Action: "accept", Content: map[string]any{Field: `{"message":"Hello"}`}}}
	tests := []struct {
		name  string
		state func(issued string) string
		args  string
		tool  *pipeline.Tool
	}{
		{"refuses a tampered state", func(s string) string { return s + "x" }, args, tool},
		{"refuses a state from another server run", func(string) string {
			other, err := prompt.NewStore(time.Now).Issue(tool.Name, json.RawMessage(args), []string{"message"})
			require.NoError(t, err)
			return other
		}, args, tool},
		{"refuses a state bound to other arguments", func(s string) string { return s }, `{"action":"send_group_msg","params":{"group_id":987654321}}`, tool},
		{"refuses a state bound to another tool", func(s string) string { return s }, args,
			&pipeline.Tool{Spec: pipeline.Spec{Name: "query_action_with_input", Mode: config.ModeRead, Actions: pipeline.ReadActions, AsksInput: true}}},
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
			first, err := New(store).Wrap(tool, next)(context.Background(), call(t, tool, send, formCaps, args))
			require.NoError(t, err)
			c := call(t, tt.tool, send, formCaps, tt.args)
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
	cat, err := catalog.Load()
	require.NoError(t, err)
	send, _ := cat.Lookup("send_group_msg")
	store := prompt.NewStore(time.Now)
	for i := 0; i < prompt.MaxPending; i++ {
		_, err := store.Issue(tool.Name, json.RawMessage(`{}`), []string{"message"})
		require.NoError(t, err)
	}
	reached := false
	h := New(store).Wrap(tool, func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		reached = true
		return &pipeline.Result{}, nil
	})
	_, err = h(context.Background(), call(t, tool, send, formCaps, `{"action":"send_group_msg","params":{"group_id":1}}`))
	require.Error(t, err)
	assert.Equal(t, fault.CodeLimit, fault.CodeOf(err))
	assert.True(t, fault.NothingSent(err), "a prompt the store refused asked nothing and sent nothing")
	assert.Contains(t, err.Error(), "prompts are already waiting")
	assert.False(t, reached)
}
