package handlers

import (
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// offFailure is the answer of a call whose service the reading of the
// settings turned off: a configuration failure, nothing sent, in the
// finding's words for the agent (what is off, why, what to tell the user).
func offFailure(f *config.Finding) error {
	return fault.Errorf(fault.CodeConfiguration, "%s", f.Agent).Unsent()
}
