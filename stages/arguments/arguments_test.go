package arguments

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// listArgs are the arguments of a docs-style tool.
type listArgs struct {
	Query string     `json:"query,omitempty" schema:"maxLength=20"`
	Limit schema.Int `json:"limit,omitempty" schema:"minimum=1,maximum=50"`
}

// actionArgs are the arguments of a tool that runs a named action.
type actionArgs struct {
	Action    string        `json:"action" schema:"minLength=1"`
	Params    schema.Object `json:"params,omitempty"`
	Execution *execution    `json:"execution,omitempty"`
}

type execution struct {
	InputFile string `json:"input_file" schema:"minLength=1"`
}

// Target implements pipeline.Target: with execution options the handler
// builds the params itself.
func (a *actionArgs) Target() (string, json.RawMessage, bool) {
	return a.Action, json.RawMessage(a.Params), a.Execution != nil
}

func noop(context.Context, *pipeline.Call, *listArgs) (pipeline.Reply[any], error) {
	return pipeline.Reply[any]{}, nil
}

func noopAction(context.Context, *pipeline.Call, *actionArgs) (pipeline.Reply[any], error) {
	return pipeline.Reply[any]{}, nil
}

var (
	listTool   = pipeline.NewTool[listArgs, any](pipeline.Spec{Name: "list_things", MinMode: config.ModeDocs, Result: `{"type":"null"}`}, noop)
	idTool     = pipeline.NewTool[listArgs, any](pipeline.Spec{Name: "preview_things", MinMode: config.ModeDocs, QuotedIDs: true, Result: `{"type":"null"}`}, noop)
	actionTool = pipeline.NewTool[actionArgs, any](pipeline.Spec{Name: "invoke_action", MinMode: config.ModeWrite, Actions: pipeline.AnyAction, Result: `{"type":"null"}`}, noopAction)
)

func TestArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tool *pipeline.Tool
		args string
		// On success: the decoded args and, for action tools, the target.
		want        any
		wantAction  string
		wantParams  string // "" means nil params
		wantBuilt   bool
		wantErr     string // "" means the call goes through
		wantNotText string
	}{
		{"decodes valid arguments into the typed value", listTool, `{"query":"group","limit":5}`,
			&listArgs{Query: "group", Limit: 5}, "", "", false, "", ""},
		{"accepts 5.0 for an integer field", listTool, `{"limit":5.0}`,
			&listArgs{Limit: 5}, "", "", false, "", ""},
		{"treats missing arguments as an empty object", listTool, ``,
			&listArgs{}, "", "", false, "", ""},
		{"treats null arguments as an empty object", listTool, `null`,
			&listArgs{}, "", "", false, "", ""},
		{"fills the action and params an action tool names", actionTool, `{"action":"get_msg","params":{"message_id":-1559550018}}`,
			&actionArgs{Action: "get_msg", Params: schema.Object(`{"message_id":-1559550018}`)}, "get_msg", `{"message_id":-1559550018}`, false, "", ""},
		{"keeps params byte for byte", actionTool, `{"action":"send_group_msg","params":{"message":"a<b","group_id":1.0}}`,
			&actionArgs{Action: "send_group_msg", Params: schema.Object(`{"message":"a<b","group_id":1.0}`)}, "send_group_msg", `{"message":"a<b","group_id":1.0}`, false, "", ""},
		{"turns missing params into an empty object", actionTool, `{"action":"get_status"}`,
			&actionArgs{Action: "get_status"}, "get_status", `{}`, false, "", ""},
		{"leaves params to a handler that builds them", actionTool, `{"action":"upload_file_stream","execution":{"input_file":"a.txt"}}`,
			&actionArgs{Action: "upload_file_stream", Execution: &execution{InputFile: "a.txt"}}, "upload_file_stream", "", true, "", ""},
		{"refuses an empty argument object when the action is required", actionTool, `{}`,
			nil, "", "", false, `arguments: required: missing properties: ["action"]`, ""},
		{"refuses missing arguments when the action is required", actionTool, ``,
			nil, "", "", false, `arguments: required: missing properties: ["action"]`, ""},
		{"refuses non-object arguments", actionTool, `[1]`,
			nil, "", "", false, "arguments: want object, got array", ""},
		{"refuses a string as arguments", listTool, `"limit=5"`,
			nil, "", "", false, "arguments: want object, got string", ""},
		{"refuses an unknown argument", listTool, `{"limit":5,"extra":1}`,
			nil, "", "", false, `arguments: unexpected additional properties ["extra"]`, ""},
		{"refuses a non-string action", actionTool, `{"action":7}`,
			nil, "", "", false, "arguments.action: want string, got integer", ""},
		{"refuses an empty action", actionTool, `{"action":""}`,
			nil, "", "", false, `arguments.action: minLength`, ""},
		{"refuses non-object params", actionTool, `{"action":"get_status","params":[1]}`,
			nil, "", "", false, "arguments.params: want object, got array", ""},
		{"refuses null params", actionTool, `{"action":"get_status","params":null}`,
			nil, "", "", false, "arguments.params: want object, got null", "invalid reflect.Value"},
		{"checks execution options", actionTool, `{"action":"upload_file_stream","execution":{"path":"a"}}`,
			nil, "", "", false, "arguments.execution", ""},
		{"refuses a value above the maximum", listTool, `{"limit":51}`,
			nil, "", "", false, "arguments.limit: maximum violated: the value must be at most 50", ""},
		{"refuses a fraction for an integer field", listTool, `{"limit":5.5}`,
			nil, "", "", false, "arguments.limit: want integer, got number", ""},
		{"refuses a string for an integer field", listTool, `{"limit":"5"}`,
			nil, "", "", false, "arguments.limit: want integer, got string", ""},
		{"refuses null for an integer field readably", listTool, `{"limit":null}`,
			nil, "", "", false, "arguments.limit: want integer, got null", "invalid reflect.Value"},
		{"refuses null for a string field readably", listTool, `{"query":null}`,
			nil, "", "", false, "arguments.query: want string, got null", "invalid reflect.Value"},
		{"reads a quoted id where the tool reads ids as actions do", idTool, `{"limit":"5"}`,
			&listArgs{Limit: 5}, "", "", false, "", ""},
		{"refuses what the id reader refuses", idTool, `{"limit":" 5"}`,
			nil, "", "", false, `arguments.limit: want an integer, or a string of its decimal digits`, ""},
		{"still checks a read id against the schema", idTool, `{"limit":"51"}`,
			nil, "", "", false, "arguments.limit: maximum violated", ""},
		{"drops Gemini CLI's wait_for_previous before validating", listTool, `{"limit":5,"wait_for_previous":true}`,
			&listArgs{Limit: 5}, "", "", false, "", ""},
		{"drops a host key an action tool is sent", actionTool, `{"wait_for_previous":false,"action":"get_status"}`,
			&actionArgs{Action: "get_status"}, "get_status", `{}`, false, "", ""},
		{"still refuses an unknown argument beside a host key", listTool, `{"wait_for_previous":true,"extra":1}`,
			nil, "", "", false, `"extra"`, "wait_for_previous"},
		{"refuses a misspelt host key: only the exact name is the host's", listTool, `{"wait_for_prev":true}`,
			nil, "", "", false, `"wait_for_prev"`, ""},
		{"names a slip's meaning and every missing argument in one refusal", actionTool, `{"acton":"get_status"}`,
			nil, "", "", false, `arguments: unexpected additional properties ["acton"] (did you mean action in place of "acton"?); required: missing properties: ["action"]`, ""},
		{"names a value's problem beside the unexpected ones", listTool, `{"limit":500,"extra":1}`,
			nil, "", "", false, `arguments: unexpected additional properties ["extra"]; arguments.limit: maximum violated: the value must be at most 50`, ""},
		{"names every unexpected argument", listTool, `{"querry":"x","lmit":5}`,
			nil, "", "", false, `unexpected additional properties ["lmit" "querry"] (did you mean limit in place of "lmit", query in place of "querry"?)`, ""},
		{"refuses broken JSON", listTool, `{"limit":`,
			nil, "", "", false, "arguments: not valid JSON", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := stagetest.Raw(tt.tool, tt.args)
			o := stagetest.Run(context.Background(), New(), c, nil)
			err, reached := o.Err, o.Reached()
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
				assert.Contains(t, err.Error(), tt.wantErr)
				if tt.wantNotText != "" {
					assert.NotContains(t, err.Error(), tt.wantNotText)
				}
				assert.False(t, reached, "a refused call goes no further")
				assert.True(t, fault.NothingSent(err))
				assert.Contains(t, fault.NextOf(err), "Correct "+tt.tool.Name+"'s arguments", "the next step names the tool, not get_action")
				assert.Nil(t, c.Args)
				assert.Empty(t, c.ActionName)
				return
			}
			require.NoError(t, err)
			assert.True(t, reached)
			assert.Equal(t, tt.want, c.Args)
			assert.Equal(t, tt.wantAction, c.ActionName)
			assert.Equal(t, tt.wantBuilt, c.ParamsBuilt)
			if tt.wantParams == "" {
				assert.Nil(t, c.Params)
			} else {
				assert.Equal(t, tt.wantParams, string(c.Params))
			}
			assert.True(t, json.Valid(c.Arguments), "the arguments are an object after the stage")
		})
	}
}

func TestHostKeysAreDroppedFromWhatLaterStagesRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, args, want string
	}{
		{"removes the key at the top level", `{"limit":5,"wait_for_previous":true}`, `{"limit":5}`},
		{"keeps values byte for byte", `{"wait_for_previous":true,"query":"a<b \u00e9"}`, `{"query":"a<b \u00e9"}`},
		{"leaves arguments without a host key untouched", `{"query":"x" , "limit":5}`, `{"query":"x" , "limit":5}`},
		{"leaves the name inside a value alone", `{"query":"\"wait_for_previous\""}`, `{"query":"\"wait_for_previous\""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := stagetest.Raw(listTool, tt.args)
			o := stagetest.Run(context.Background(), New(), c, nil)
			require.NoError(t, o.Err)
			assert.Equal(t, tt.want, string(c.Arguments), "what the input stage signs and the call log records")
		})
	}
}

func TestEveryHostKeyNamesItsHostAndVersion(t *testing.T) {
	t.Parallel()
	require.NotEmpty(t, pipeline.HostKeys)
	seen := map[string]bool{}
	for _, k := range pipeline.HostKeys {
		assert.NotEmpty(t, k.Name)
		assert.NotEmpty(t, k.Host, k.Name)
		assert.Regexp(t, `^\d+\.\d+\.\d+$`, k.Version, k.Name)
		assert.NotEmpty(t, k.Why, k.Name)
		assert.False(t, seen[k.Name], "%s is listed once", k.Name)
		seen[k.Name] = true
	}
}

func TestArgumentsDecodedOnceReachTheHandler(t *testing.T) {
	t.Parallel()
	var got *listArgs
	tool := pipeline.NewTool[listArgs, any](pipeline.Spec{Name: "list_things", MinMode: config.ModeDocs, Result: `{"type":"null"}`},
		func(_ context.Context, _ *pipeline.Call, a *listArgs) (pipeline.Reply[any], error) {
			got = a
			return pipeline.Reply[any]{}, nil
		})
	c := stagetest.Raw(tool, `{"limit":5.0}`)
	o := stagetest.Run(context.Background(), New(), c, tool.Handle)
	require.NoError(t, o.Err)
	require.NotNil(t, got)
	assert.Same(t, c.Args, got, "the handler reads the value the stage decoded")
	assert.Equal(t, schema.Int(5), got.Limit)
}

func TestArgumentsDecodeFailure(t *testing.T) {
	t.Parallel()
	// A value the schema admits but the type cannot hold (an integer beyond
	// int64) fails at decoding, as an invalid argument.
	tool := pipeline.NewTool[listArgs, any](pipeline.Spec{Name: "list_things", MinMode: config.ModeDocs, Result: `{"type":"null"}`}, noop)
	c := stagetest.Raw(tool, `{"limit":1e30}`)
	// A plain integer schema, so the value reaches Decode.
	tool.InputSchema = json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"}},"additionalProperties":false}`)
	o := stagetest.Run(context.Background(), New(), c, nil)
	require.Error(t, o.Err)
	assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(o.Err))
	assert.Contains(t, o.Err.Error(), "want an integer")
	assert.False(t, o.Reached())
	assert.Nil(t, c.Args)
}
