package stages

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/pace"
	"github.com/snowluma/snowluma-mcp/stages/params"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// TestSpellingsOfOneTargetChargeOneBudget: params reads a quoted id once,
// before pace, so "20001", 20001 and 20001.0 are one chat's sends, charged
// to one budget, and what reaches SnowLuma is the number each time.
func TestSpellingsOfOneTargetChargeOneBudget(t *testing.T) {
	t.Parallel()
	limit := config.Budget{Burst: 3, Every: time.Hour}
	meter := budget.New(config.SendPace{Target: limit, Account: config.Budget{Burst: 100, Every: time.Second}}, budgettest.New(), nil)
	tool := stagetest.Invoke
	var sent []string
	h := pipeline.Chain(params.New(), pace.New(meter))(tool, func(_ context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		sent = append(sent, string(c.Params))
		return &pipeline.Result{}, nil
	})
	for _, id := range []string{`"20001"`, `20001`, `20001.0`} {
		_, err := h(context.Background(), stagetest.Call(tool, "send_group_msg", `{"group_id":`+id+`,"message":"hi"}`))
		require.NoError(t, err, id)
	}
	assert.Equal(t, []string{`{"group_id":20001,"message":"hi"}`, `{"group_id":20001,"message":"hi"}`, `{"group_id":20001,"message":"hi"}`}, sent)
	snap := meter.Snapshot()
	require.Len(t, snap.Targets, 1, "one chat: %+v", snap.Targets)
	assert.Equal(t, budget.State{Budget: "group 20001", Available: 0, NextFreeMS: time.Hour.Milliseconds()}, snap.Targets[0], "all three sends were charged to it")
}
