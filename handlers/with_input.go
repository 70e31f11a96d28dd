package handlers

import "github.com/snowluma/snowluma-mcp/pipeline"

// withInput makes the *_with_input twin of an execution tool: the same
// arguments, mode, gates and handler, plus permission to ask the user for
// missing required params. The plain tool stays unchanged.
func withInput(t *pipeline.Tool) *pipeline.Tool {
	twin := *t
	twin.Name += "_with_input"
	twin.Description += " 缺少动作必填参数时，会通过表单（form elicitation）向用户询问一个 params_json（JSON 对象）后再执行；用户拒绝或答复无效则不执行。需要客户端支持表单询问，否则请用 " + t.Name + " 并给出完整参数。"
	twin.Summary.EN += " Asks you for missing parameters first."
	twin.Summary.ZH += "缺少参数时会先问你。"
	twin.AsksInput = true
	return &twin
}
