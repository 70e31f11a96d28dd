package handlers

import (
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

// sendPaceInfo is the send budgets (write mode only, where something can
// be sent): the rules, and what is left of the account's budget and of
// each target's used recently.
type sendPaceInfo struct {
	Enabled       bool           `json:"enabled"`
	TargetBudget  *budgetRule    `json:"target_budget,omitempty"`
	AccountBudget *budgetRule    `json:"account_budget,omitempty"`
	MaxWaitMS     *int64         `json:"max_wait_ms,omitempty"`
	Account       *budget.State  `json:"account,omitempty"`
	RecentTargets []budget.State `json:"recent_targets,omitempty"`
	// Shared says where the budgets live that every server of the account
	// spends from; the file is named once the account is known.
	Shared *sharedInfo `json:"shared,omitempty"`
	// Problem says why the budgets cannot be read (the state directory
	// is unusable); sends are refused until it is fixed, and no budget
	// is shown.
	Problem string `json:"problem,omitempty"`
}

// sharedInfo is the shared budgets' state.
type sharedInfo struct {
	Note      string `json:"note"`
	StateDir  string `json:"state_dir"`
	StateFile string `json:"state_file,omitempty"`
}

// budgetRule is one budget's rule: burst sends at once, then one more
// every refill_every_ms.
type budgetRule struct {
	Burst         int   `json:"burst"`
	RefillEveryMS int64 `json:"refill_every_ms"`
}

func rule(b config.Budget) *budgetRule {
	return &budgetRule{Burst: b.Burst, RefillEveryMS: b.Every.Milliseconds()}
}

// describePace reports the budgets; nil below write mode.
func describePace(cfg *config.Config, m *budget.Meter) *sendPaceInfo {
	if !cfg.WriteEnabled() {
		return nil
	}
	if m == nil {
		return &sendPaceInfo{}
	}
	if m.Recording() {
		file, _ := m.Shared()
		return &sendPaceInfo{Shared: &sharedInfo{
			Note:     "pacing is off on this server: its sends never wait, and they are recorded in the budgets every snowluma-mcp server of this QQ account on this machine shares, so the servers that pace count them",
			StateDir: cfg.StateDir, StateFile: file,
		}}
	}
	l, now := m.Limits(), m.Snapshot()
	wait := l.Wait.Milliseconds()
	if now.Problem != "" {
		return &sendPaceInfo{Enabled: true, TargetBudget: rule(l.Target), AccountBudget: rule(l.Account), MaxWaitMS: &wait, Problem: now.Problem}
	}
	info := &sendPaceInfo{
		Enabled: true, TargetBudget: rule(l.Target), AccountBudget: rule(l.Account), MaxWaitMS: &wait,
		Account: &now.Account, RecentTargets: now.Targets,
	}
	if file, shared := m.Shared(); shared {
		info.Shared = &sharedInfo{
			Note:     "shared: every snowluma-mcp server of this QQ account on this machine spends from these budgets, across processes and restarts; where servers are configured differently the strictest setting applies",
			StateDir: cfg.StateDir, StateFile: file,
		}
	}
	return info
}
