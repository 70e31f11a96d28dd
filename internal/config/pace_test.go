package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadReadsTheSendPace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want SendPace
	}{
		{"paces by default", nil, SendPace{Target: DefaultTargetBudget, Account: DefaultAccountBudget, Wait: 5 * time.Second}},
		{"turns pacing off", map[string]string{"SNOWLUMA_MCP_SEND_PACE": " OFF "},
			SendPace{Off: true, Target: DefaultTargetBudget, Account: DefaultAccountBudget, Wait: 5 * time.Second}},
		{"sets both budgets", map[string]string{"SNOWLUMA_MCP_SEND_PACE": "target=2+1/500ms, account = 10+60/1m"},
			SendPace{Target: Budget{2, 500 * time.Millisecond}, Account: Budget{10, time.Second}, Wait: 5 * time.Second}},
		{"keeps the default of a budget left out", map[string]string{"SNOWLUMA_MCP_SEND_PACE": "account=1+1/3s"},
			SendPace{Target: DefaultTargetBudget, Account: Budget{1, 3 * time.Second}, Wait: 5 * time.Second}},
		{"reads the wait bound", map[string]string{"SNOWLUMA_MCP_SEND_WAIT_MS": "1200"},
			SendPace{Target: DefaultTargetBudget, Account: DefaultAccountBudget, Wait: 1200 * time.Millisecond}},
		{"accepts a wait bound of zero", map[string]string{"SNOWLUMA_MCP_SEND_WAIT_MS": "0"},
			SendPace{Target: DefaultTargetBudget, Account: DefaultAccountBudget}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(tt.env))
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.SendPace)
		})
	}
}

func TestLoadRefusesAMalformedSendPace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, pace, wait, mention, why string
	}{
		{"a word that is not off", "slow", "", "SNOWLUMA_MCP_SEND_PACE", "each part is"},
		{"an unknown budget", "group=1+1/1s", "", "SNOWLUMA_MCP_SEND_PACE", "each part is"},
		{"a budget given twice", "target=1+1/1s,target=2+1/1s", "", "SNOWLUMA_MCP_SEND_PACE", "given twice"},
		{"no refill", "target=3", "", "SNOWLUMA_MCP_SEND_PACE", "expected B+N/D"},
		{"a zero burst", "target=0+1/1s", "", "SNOWLUMA_MCP_SEND_PACE", "the burst B must be"},
		{"a zero refill", "target=1+0/1s", "", "SNOWLUMA_MCP_SEND_PACE", "the refill count N must be"},
		{"a duration without a unit", "account=1+1/5", "", "SNOWLUMA_MCP_SEND_PACE", "the refill period D must be"},
		{"a negative duration", "account=1+1/-5s", "", "SNOWLUMA_MCP_SEND_PACE", "the refill period D must be"},
		{"a refill too fast to keep", "account=1+100000/1s", "", "SNOWLUMA_MCP_SEND_PACE", "faster than"},
		{"a negative wait", "", "-1", "SNOWLUMA_MCP_SEND_WAIT_MS", "from 0 to 600000"},
		{"a wait in seconds", "", "5s", "SNOWLUMA_MCP_SEND_WAIT_MS", "from 0 to 600000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Load(env(map[string]string{"SNOWLUMA_MCP_SEND_PACE": tt.pace, "SNOWLUMA_MCP_SEND_WAIT_MS": tt.wait}))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.mention)
			assert.Contains(t, err.Error(), tt.why)
		})
	}
}
