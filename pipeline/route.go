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
// every tool that takes one: with up to three real actions the name may
// mean (search.Offer: the name off only in case or blanks, a slip or two
// away, or what its words find through the search) in its message and its
// next step, so that a model calls the name it meant instead of searching
// for it.
func UnknownAction(cat *catalog.Catalog, name string) *fault.Error {
	offer := search.For(cat).Offer(name)
	if len(offer) == 0 {
		return fault.Errorf(fault.CodeUnknownAction, "unknown action %s: it is not in the bundled catalog", fault.Quote(name))
	}
	return fault.Errorf(fault.CodeUnknownAction, "unknown action %s: it is not in the bundled catalog; did you mean %s?", fault.Quote(name), strings.Join(offer, " or ")).
		Then(OfferNext(offer))
}

// OfferNext is the next step of an unknown name with real actions offered:
// the default one (find the right name with search_actions or
// list_actions) with the offer in it.
func OfferNext(offer []string) string {
	return "If " + offer[0] + " does what you meant, call it by that name (get_action " + offer[0] + " shows its parameters); otherwise find the right name with search_actions or list_actions. Nothing was sent."
}
