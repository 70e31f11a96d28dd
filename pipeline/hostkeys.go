package pipeline

// HostKey is an argument a host adds to every MCP tool's parameters for its
// own use and forwards when its model sets it. It means nothing to this
// server, and a host's model is told to set it, so refusing it would break
// calls a model makes as its host instructs. No tool of ours may declare a
// property of the same name (the handlers' golden test holds that).
type HostKey struct {
	Name    string // the argument's name
	Host    string // the host that adds it
	Version string // the host's version it was measured with
	Why     string // what the host means by it
}

// HostKeys is the whole list of host-added control keys the arguments
// stage drops before validating; every other unknown argument is refused.
// A key is added here only when a host is measured sending it.
var HostKeys = []HostKey{
	{Name: "wait_for_previous", Host: "Gemini CLI", Version: "0.61.0",
		Why: "a boolean Gemini CLI adds to every MCP tool, telling itself to run the call after the previous ones"},
}
