package input_test

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/input"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// A call of invoke_action_with_input that leaves out a required param
// does not run: the stage answers with a question to the user for the
// missing field, from a client that can show a form.
func Example() {
	c := stagetest.Call(stagetest.InvokeWithInput, "send_group_msg", `{"group_id":20001}`)
	forms := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}
	c.Client = pipeline.NewClient(true, func() *mcp.ClientCapabilities { return forms })

	o := stagetest.Run(context.Background(), input.New(prompt.NewStore(time.Now)), c, nil)
	question := o.Result.InputRequests[input.Key].(*mcp.ElicitParams)
	fmt.Println("next ran:", o.Reached())
	fmt.Println(question.Message)
	// Output:
	// next ran: false
	// 动作 send_group_msg 缺少必填参数 message。请在 params_json 中以 JSON 对象填写，例如 {"message": …}。
}
