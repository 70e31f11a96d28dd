// Package pace is the pacing stage: it keeps an agent from getting the
// user's QQ account restricted by QQ's risk control, which freezes
// accounts that send in bursts. Every call of an action the catalog marks
// as a delivery (catalog.Delivery) spends from its target's budget and
// from the account's before anything is sent. A send that has to wait a
// little waits, visibly: the client hears why and for how long, and the
// diagnostics record the time held. One that would wait longer than
// allowed is refused at once as rate_limited, with retry_after_ms. Other
// calls pass untouched.
package pace

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the pacing stage.
type Stage struct{ meter *budget.Meter }

// New returns the stage; meter is nil when pacing is off (or nothing can
// be sent), and then the stage wraps nothing.
func New(meter *budget.Meter) Stage { return Stage{meter: meter} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return "pace" }

// Acts implements pipeline.Stage: a send budget is spent once, by the pass that
// sends.
func (Stage) Acts() pipeline.Acts { return pipeline.InWork }

// Wrap implements pipeline.Stage. Only tools that run any action can
// deliver.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if s.meter == nil || t.Actions != pipeline.AnyAction {
		return next
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if c.Action == nil || c.Action.Delivers == nil {
			return next(ctx, c)
		}
		return s.spend(ctx, c, next)
	}
}

// spend charges a delivery, waits for its budgets or refuses it, and
// sends it.
func (s Stage) spend(ctx context.Context, c *pipeline.Call, next pipeline.Handler) (*pipeline.Result, error) {
	g := s.meter.Take(TargetOf(c.Action.Delivers, c.Params))
	spent := budgetName(g.Budget)
	if !g.Ok {
		after := budget.Ceil(g.Wait)
		return nil, fault.Errorf(fault.CodeRateLimited, s.Name(),
			"%s is spent: this %s could go in %s, longer than the %s a send may wait (SNOWLUMA_MCP_SEND_WAIT_MS); nothing was sent",
			spent, c.Action.Name, seconds(after), seconds(s.meter.Limits().Wait)).Unsent().After(after)
	}
	var announceErr error
	if g.Wait > 0 {
		if c.Announce != nil {
			announceErr = c.Announce(ctx, fmt.Sprintf("waiting %s for %s", seconds(g.Wait), spent))
		}
		clock := s.meter.Clock()
		start := clock.Now()
		if err := clock.Sleep(ctx, g.Wait); err != nil {
			g.Cancel()
			return nil, fault.Wrap(fault.CodeCancelled, s.Name(), err, "cancelled while waiting for "+spent+"; nothing was sent").Unsent()
		}
		c.Held = budget.Ceil(clock.Now().Sub(start))
	}
	r, err := next(ctx, c)
	if announceErr != nil && r != nil {
		r.Diagnostics.Note("the notification about waiting for " + spent + " could not be delivered: " + announceErr.Error())
	}
	return r, err
}

// budgetName names a budget for the agent.
func budgetName(name string) string {
	if name == budget.Account {
		return "the account's send budget"
	}
	return name + "'s send budget"
}

// seconds renders a wait the way a person reads it, rounded up to a tenth
// of a second so that a wait is never reported shorter than it is.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(math.Ceil(d.Seconds()*10)/10, 'f', 1, 64) + " s"
}

// TargetOf finds where a delivery goes: the first of the declared target
// params that the call gives as a positive number, read the way SnowLuma
// reads it (a JSON number, or a string holding one). A call that names
// none (an upload-only send_forward_msg, a reaction) has the zero Target
// and is charged to the account alone.
func TargetOf(d *catalog.Delivery, params json.RawMessage) budget.Target {
	if len(d.Targets) == 0 {
		return budget.Target{}
	}
	var given map[string]json.RawMessage
	if json.Unmarshal(params, &given) != nil {
		return budget.Target{}
	}
	for _, t := range d.Targets {
		if id, ok := positive(given[t.Param]); ok {
			return budget.Target{Chat: t.Chat, ID: id}
		}
	}
	return budget.Target{}
}

// positive reads a JSON value as SnowLuma's "> 0" test does, and returns
// it in one canonical form so that 20001 and "20001" share a budget.
func positive(raw json.RawMessage) (string, bool) {
	text := strings.TrimSpace(string(raw))
	var s string
	if strings.HasPrefix(text, `"`) && json.Unmarshal(raw, &s) == nil {
		text = strings.TrimSpace(s)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return "", false
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return strconv.FormatInt(n, 10), true
	}
	return strconv.FormatFloat(f, 'f', -1, 64), true
}
