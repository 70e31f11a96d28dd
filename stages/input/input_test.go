package input

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

var tool = &pipeline.Tool{Name: "invoke_action_with_input", Route: pipeline.RouteInvoke, Input: true}

// modern builds a 2026-07-28 request whose _meta declares caps.
func modern(caps map[string]any, args string) *mcp.CallToolRequest {
	return &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{
		Name: tool.Name, Arguments: json.RawMessage(args),
		Meta: mcp.Meta{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps},
	}}
}

var formCaps = map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}

func TestAsking(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	send, _ := cat.Lookup("send_group_msg")
	tests := []struct {
		name    string
		tool    *pipeline.Tool
		caps    map[string]any
		args    string
		ask     []string // fields asked for; nil means the call went through
		errCode fault.Code
	}{
		{"lets a complete call through without asking", tool, formCaps, `{"action":"send_group_msg","params":{"group_id":1,"message":"hi"}}`, nil, ""},
		{"asks for one missing field", tool, formCaps, `{"action":"send_group_msg","params":{"group_id":123456789}}`, []string{"message"}, ""},
		{"asks for every missing field in catalog order", tool, formCaps, `{"action":"send_group_msg"}`, []string{"group_id", "message"}, ""},
		{"treats an empty elicitation capability as form", tool, map[string]any{"elicitation": map[string]any{}}, `{"action":"send_group_msg","params":{"group_id":1}}`, []string{"message"}, ""},
		{"refuses a client without elicitation", tool, map[string]any{}, `{"action":"send_group_msg","params":{"group_id":1}}`, nil, fault.CodeUnsupported},
		{"refuses a URL-only client", tool, map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}, `{"action":"send_group_msg","params":{"group_id":1}}`, nil, fault.CodeUnsupported},
		{"never asks for the plain tools", &pipeline.Tool{Name: "invoke_action", Route: pipeline.RouteInvoke}, formCaps, `{"action":"send_group_msg"}`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New(NewStore(time.Now)).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			c := &pipeline.Call{Tool: tt.tool, Action: send, Request: modern(tt.caps, tt.args), Arguments: json.RawMessage(tt.args)}
			r, err := h(context.Background(), c)
			if tt.errCode != "" {
				require.Error(t, err)
				assert.Equal(t, tt.errCode, fault.CodeOf(err))
				assert.Contains(t, err.Error(), "invoke_action with complete params")
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
		})
	}
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
		{"refuses invalid JSON", accept(`{"message":`), "", fault.CodeInvalidArgument, "must hold one JSON object"},
		{"refuses a JSON array", accept(`["Hello"]`), "", fault.CodeInvalidArgument, "must hold one JSON object"},
		{"refuses a missing field", accept(`{}`), "", fault.CodeInvalidArgument, "missing properties"},
		{"refuses an extra field", accept(`{"message":"hi","auto_escape":true}`), "", fault.CodeInvalidArgument, "additional properties"},
		{"refuses overwriting a provided field", accept(`{"message":"hi","group_id":987654321}`), "", fault.CodeInvalidArgument, "additional properties"},
		{"refuses overwriting the action", accept(`{"message":"hi","action":"delete_msg"}`), "", fault.CodeInvalidArgument, "additional properties"},
		{"refuses a non-string answer", accept(42), "", fault.CodeInvalidArgument, "no params_json string"},
		{"refuses a missing answer", nil, "", fault.CodeInvalidArgument, "carries no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			store := NewStore(time.Now)
			var got json.RawMessage
			h := New(store).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				var a struct {
					Params json.RawMessage `json:"params"`
				}
				require.NoError(t, json.Unmarshal(c.Arguments, &a))
				got = a.Params
				return &pipeline.Result{}, nil
			})
			first, err := h(context.Background(), &pipeline.Call{Tool: tool, Action: send, Request: modern(formCaps, args), Arguments: json.RawMessage(args)})
			require.NoError(t, err)
			retry := modern(formCaps, args)
			retry.Params.RequestState = first.RequestState
			if tt.answer != nil {
				retry.Params.InputResponses = mcp.InputResponseMap{Key: tt.answer}
			}
			_, err = h(context.Background(), &pipeline.Call{Tool: tool, Action: send, Request: retry, Arguments: json.RawMessage(args)})
			if tt.errCode != "" {
				require.Error(t, err)
				assert.Equal(t, tt.errCode, fault.CodeOf(err))
				assert.Contains(t, err.Error(), tt.errText)
				assert.Nil(t, got, "nothing was executed")
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, tt.params, string(got))
			_, err = h(context.Background(), &pipeline.Call{Tool: tool, Action: send, Request: retry, Arguments: json.RawMessage(args)})
			assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err), "a replay executes nothing")
		})
	}
}
