package pipeline

import (
	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Resolve finds the named action (aliases resolve) and checks that a tool
// running actions the way `actions` says may run it: it is the read/write
// routing rule, shared by the gate and every handler that runs a fixed
// action of its own.
func Resolve(cat *catalog.Catalog, name string, actions Actions) (*catalog.Action, error) {
	a, ok := cat.Lookup(name)
	if !ok {
		return nil, fault.Errorf(fault.CodeUnknownAction, "unknown action %s: it is not in the bundled catalog", fault.Quote(name))
	}
	switch {
	case actions == NoActions:
		return nil, fault.Errorf(fault.CodeInternal, "this tool runs no actions")
	case actions == ReadActions && (!a.ReadOnly || a.Stream):
		what := "a write action"
		if a.Stream {
			what = "a stream action"
		}
		return nil, fault.Errorf(fault.CodeWrongTool, "%s is %s; query_action runs only read-only actions, use invoke_action (write mode)", a.Name, what)
	}
	return a, nil
}
