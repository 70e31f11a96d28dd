package handlers

import "github.com/snowluma/snowluma-mcp/pipeline"

// withInput makes the *_with_input twin of an execution tool: the same
// arguments, mode, gates and handler, plus permission to ask the user for
// missing required params. The plain tool stays unchanged.
func withInput(t *pipeline.Tool) *pipeline.Tool {
	twin := *t
	twin.Name += "_with_input"
	twin.Description += " 缺必填参数时用表单向用户询问（form elicitation），拒绝则不执行；客户端不支持表单时用 " + t.Name + "。"
	twin.Summary.EN += " Asks you for missing parameters first."
	twin.Summary.ZH += "缺少参数时会先问你。"
	twin.AsksInput = true
	return &twin
}
