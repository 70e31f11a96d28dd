package pipeline

import (
	"strings"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/catalog/search"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Resolve finds the named action (aliases resolve) and checks that a tool
// running actions the way `actions` says may run it: it is the read/write
// routing rule, shared by the gate and every handler that runs a fixed
// action of its own.
func Resolve(cat *catalog.Catalog, name string, actions Actions) (*catalog.Action, error) {
	a, ok := cat.Lookup(name)
	if !ok {
		return nil, UnknownAction(cat, name)
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

// UnknownAction is the failure of a name the catalog does not hold, for
// every tool that takes one: with the nearest names and aliases
// (search.Nearest) in its message and its next step when the name is one
// slip from them, so that a model calls the name it meant instead of
// searching for it.
func UnknownAction(cat *catalog.Catalog, name string) *fault.Error {
	near := search.For(cat).Nearest(name)
	if len(near) == 0 {
		return fault.Errorf(fault.CodeUnknownAction, "unknown action %s: it is not in the bundled catalog", fault.Quote(name))
	}
	return fault.Errorf(fault.CodeUnknownAction, "unknown action %s: it is not in the bundled catalog; did you mean %s?", fault.Quote(name), strings.Join(near, " or ")).
		Then("If " + near[0] + " does what you meant, call it by that name (get_action " + near[0] + " shows its parameters); otherwise find the right name with search_actions.")
}
