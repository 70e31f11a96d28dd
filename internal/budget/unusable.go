package budget

import (
	"errors"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Unusable is the failure of a send whose budgets could not be read: a
// configuration failure naming the state directory, with nothing sent,
// so that the agent tells the user what to change instead of waiting for
// a budget that will never refill.
//
// A failure that is already a fault (a lock held past its bound) says
// its own cause and next step, and is kept as it is.
func Unusable(err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return fe
	}
	return fault.Errorf(fault.CodeConfiguration,
		"the send budgets in %s cannot be used (%v), so nothing was sent; no wait will help: tell the user to fix %s (or set it to a new folder) and restart the server",
		config.StateDirVar, err, config.StateDirVar).Unsent()
}
