package budget_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

// TestLocalStoreConforms runs the behaviour table every store must pass
// against the in-process one.
func TestLocalStoreConforms(t *testing.T) {
	t.Parallel()
	budgettest.Conformance(t, func(sp config.SendPace, c budget.Clock) budget.Store { return budget.NewLocal(sp, c) })
}

// TestMeterConforms runs it through the Meter the server uses.
func TestMeterConforms(t *testing.T) {
	t.Parallel()
	budgettest.Conformance(t, func(sp config.SendPace, c budget.Clock) budget.Store { return budget.New(sp, c, nil) })
}

func TestMeterIsOffWhenPacingIsOff(t *testing.T) {
	t.Parallel()
	assert.Nil(t, budget.New(config.SendPace{Off: true}, budget.Wall{}, nil))
}
