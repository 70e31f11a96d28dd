package handlers

// withInput makes the *_with_input twin of an execution tool: the same
// arguments, gates and handler, plus the input stage's permission to ask the
// user for missing required params. The plain tool stays unchanged.
func withInput(t Tool) Tool {
	def := *t.Def
	def.Name += "_with_input"
	def.Description += " 缺少动作必填参数时，会通过表单（form elicitation）向用户询问一个 params_json（JSON 对象）后再执行；用户拒绝或答复无效则不执行。需要客户端支持表单询问，否则请用 " + t.Def.Name + " 并给出完整参数。"
	spec := *t.Spec
	spec.Name, spec.Input = def.Name, true
	return Tool{Def: &def, Spec: &spec, Handle: t.Handle}
}
