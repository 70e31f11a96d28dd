package params

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

var (
	queryTool  = &pipeline.Tool{Spec: pipeline.Spec{Name: "query_action", MinMode: config.ModeRead, Actions: pipeline.ReadActions}}
	invokeTool = &pipeline.Tool{Spec: pipeline.Spec{Name: "invoke_action", MinMode: config.ModeWrite, Actions: pipeline.AnyAction}}
)

func TestParams(t *testing.T) {
	t.Parallel()
	cat := stagetest.Catalog()
	getMsg, _ := cat.Lookup("get_msg")
	upload, _ := cat.Lookup("upload_file_stream")
	status, _ := cat.Lookup("get_status")
	sendGroup, _ := cat.Lookup("send_group_msg")
	qzone, _ := cat.Lookup("send_qzone_msg")
	groupFile, _ := cat.Lookup("get_group_file_url")
	tests := []struct {
		name    string
		tool    *pipeline.Tool
		action  *catalog.Action
		params  string // "" means nil
		built   bool
		wantErr string // "" means the call goes through
		sends   string // the params after the stage; "" means unchanged
	}{
		{"reads a quoted id as the number it names", invokeTool, sendGroup, `{"group_id":"20001","message":"hi"}`, false, "", `{"group_id":20001,"message":"hi"}`},
		{"reads leading zeros as decimal", invokeTool, sendGroup, `{"group_id":"020001","message":"hi"}`, false, "", `{"group_id":20001,"message":"hi"}`},
		{"writes an integral number one way", invokeTool, sendGroup, `{"message":"hi", "group_id":20001.0}`, false, "", `{"message":"hi","group_id":20001}`},
		{"reads a quoted negative message id", queryTool, getMsg, `{"message_id":"-1559550018"}`, false, "", `{"message_id":-1559550018}`},
		{"reads quoted booleans", invokeTool, sendGroup, `{"group_id":1,"message":"hi","auto_escape":"true"}`, false, "", `{"group_id":1,"message":"hi","auto_escape":true}`},
		{"reads each quoted id of an array", invokeTool, qzone, `{"content":"x","target_uins":["10001",10002]}`, false, "", `{"content":"x","target_uins":[10001,10002]}`},
		{"reads a number given for a string param as its digits", queryTool, groupFile, `{"group_id":1,"file_id":12345}`, false, "", `{"group_id":1,"file_id":"12345"}`},
		{"refuses a minus where the minimum forbids it", invokeTool, sendGroup, `{"group_id":"-5","message":"hi"}`, false, `params.group_id: want an integer, or a string of its decimal digits (such as "20001"); the string "-5" is neither`, ""},
		{"refuses blanks around digits", invokeTool, sendGroup, `{"group_id":" 12","message":"hi"}`, false, `the string " 12" is neither`, ""},
		{"refuses hex", invokeTool, sendGroup, `{"group_id":"0x10","message":"hi"}`, false, `the string "0x10" is neither`, ""},
		{"refuses an exponent", invokeTool, sendGroup, `{"group_id":"1e3","message":"hi"}`, false, `the string "1e3" is neither`, ""},
		{"refuses a fraction", invokeTool, sendGroup, `{"group_id":"12.7","message":"hi"}`, false, `the string "12.7" is neither`, ""},
		{"refuses a plus", invokeTool, sendGroup, `{"group_id":"+12","message":"hi"}`, false, `the string "+12" is neither`, ""},
		{"refuses a quoted id out of range", invokeTool, sendGroup, `{"group_id":"0","message":"hi"}`, false, "params.group_id: minimum violated: the value must be at least 1", ""},
		{"refuses an id beyond what SnowLuma reads exactly", invokeTool, sendGroup, `{"group_id":"9007199254740993","message":"hi"}`, false, "beyond 2^53-1", ""},
		{"refuses a bad element of an id array by its index", invokeTool, qzone, `{"content":"x","target_uins":["1","x"]}`, false, `params.target_uins[1]: want an integer`, ""},
		{"refuses other words for a boolean", invokeTool, sendGroup, `{"group_id":1,"message":"hi","auto_escape":"yes"}`, false, `params.auto_escape: want true or false (or the string "true" or "false"), got the string "yes"`, ""},
		{"refuses quoted message id 0", queryTool, getMsg, `{"message_id":"0"}`, false, "params.message_id: this value is not allowed here", ""},
		{"passes valid params through unchanged", queryTool, getMsg, `{"message_id":-1559550018}`, false, "", ""},
		{"accepts the empty object that stands for absent params", queryTool, status, `{}`, false, "", ""},
		{"leaves params to an automatic upload", invokeTool, upload, "", true, "", ""},
		{"skips built params even when they would not fit", invokeTool, upload, `{"nonsense":true}`, true, "", ""},
		{"checks explicit upload params", invokeTool, upload, `{}`, false, `params: required: missing properties: ["stream_id"]`, ""},
		{"refuses a missing required param", queryTool, getMsg, `{}`, false, `params: required: missing properties: ["message_id"]`, ""},
		{"refuses message_id 0", queryTool, getMsg, `{"message_id":0}`, false, "params.message_id: this value is not allowed here", ""},
		{"names the action and where to read its parameters", invokeTool, getMsg, `{}`, false, "invalid params for get_msg (get_action shows its parameters)", ""},
		{"refuses a null param readably", queryTool, getMsg, `{"message_id":null}`, false, "params.message_id: want integer, got null", ""},
		{"refuses params that are not JSON", invokeTool, getMsg, `{`, false, "params: not valid JSON", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New().Wrap(tt.tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			var params json.RawMessage
			if tt.params != "" {
				params = json.RawMessage(tt.params)
			}
			c := &pipeline.Call{Request: pipeline.Request{Tool: tt.tool}, Resolved: pipeline.Resolved{ActionName: tt.action.Name, Action: tt.action, Params: params, ParamsBuilt: tt.built}}
			_, err := h(context.Background(), c)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.False(t, reached, "a refused call goes no further")
				return
			}
			require.NoError(t, err)
			assert.True(t, reached)
			if tt.sends == "" {
				assert.Equal(t, params, c.Params, "params already in SnowLuma's spelling go on byte for byte")
			} else {
				assert.Equal(t, tt.sends, string(c.Params))
			}
		})
	}
}

// TestParamsRefusesABodySnowLumaWouldDropBeforeAnyBudget: params
// whose request body would pass SnowLuma's cap are refused here, as
// limit and unsent, so that pace, which runs after, never spends a budget
// on them; one that fits goes on.
func TestParamsRefusesABodySnowLumaWouldDropBeforeAnyBudget(t *testing.T) {
	t.Parallel()
	frame := onebot.BodySize("send_group_msg", json.RawMessage(`{"group_id":20001,"message":""}`))
	tests := []struct {
		name   string
		size   int
		passes bool
	}{
		{"a body at the cap goes on", onebot.BodyCap, true},
		{"a body one byte over is refused", onebot.BodyCap + 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reached := false
			h := New().Wrap(invokeTool, func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
				reached = true
				return &pipeline.Result{}, nil
			})
			p := `{"group_id":20001,"message":"` + strings.Repeat("a", tt.size-frame) + `"}`
			_, err := h(context.Background(), stagetest.Call(invokeTool, "send_group_msg", p))
			assert.Equal(t, tt.passes, reached)
			if tt.passes {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, fault.CodeLimit, fault.CodeOf(err))
			assert.True(t, fault.NothingSent(err))
			assert.Contains(t, err.Error(), strconv.Itoa(tt.size))
		})
	}
}

func TestParamsChecksEveryCallNotOnlyTheFirst(t *testing.T) {
	t.Parallel()
	h := New().Wrap(queryTool, stagetest.Answer(&pipeline.Result{}, nil))
	for _, p := range []string{`{"message_id":1}`, `{"message_id":0}`, `{"message_id":2}`} {
		_, err := h(context.Background(), stagetest.Call(queryTool, "get_msg", p))
		if p == `{"message_id":0}` {
			assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err), p)
		} else {
			assert.NoError(t, err, p)
		}
	}
}

func TestParamsPassesToolsWithoutActionsStraightThrough(t *testing.T) {
	t.Parallel()
	docs := &pipeline.Tool{Spec: pipeline.Spec{Name: "list_actions", MinMode: config.ModeDocs, Actions: pipeline.NoActions}}
	next := func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		return &pipeline.Result{Payload: "next"}, nil
	}
	h := New().Wrap(docs, next)
	assert.Equal(t, reflect.ValueOf(next).Pointer(), reflect.ValueOf(h).Pointer(), "the stage returns next unchanged")
	c := &pipeline.Call{Request: pipeline.Request{Tool: docs}, Resolved: pipeline.Resolved{Params: json.RawMessage(`not json`)}}
	r, err := h(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, "next", r.Payload)
	assert.Equal(t, json.RawMessage(`not json`), c.Params, "untouched")
}
