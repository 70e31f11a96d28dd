// Package pace is the pacing stage: it keeps an agent from getting the
// user's QQ account restricted by QQ's risk control, which freezes
// accounts that send in bursts. Every call of an action the catalog marks
// as a delivery (catalog.Delivery) spends from the budget of the chat
// SnowLuma will send it to and from the account's before anything is sent;
// a target spelled so that SnowLuma could read it as another chat is
// refused first. A send that has to wait a little waits, visibly: the
// client hears why and for how long, and the diagnostics record the time
// held. One that would wait longer than allowed is refused at once as
// rate_limited, with retry_after_ms. A send that certainly never reached
// SnowLuma gives its budgets back. Other calls pass untouched.
package pace

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the pacing stage.
type Stage struct{ meter *budget.Meter }

// New returns the stage; meter is nil when nothing can be sent (below
// write mode) or pacing is off with no shared budgets to record in, and
// then the stage wraps nothing. With pacing off on shared budgets the
// meter only records (budget.Meter.Recording).
func New(meter *budget.Meter) Stage { return Stage{meter: meter} }

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

// spend charges a delivery, waits for its budgets or refuses it, sends it,
// and gives the budgets back when the send certainly never went out.
func (s Stage) spend(ctx context.Context, c *pipeline.Call, next pipeline.Handler) (*pipeline.Result, error) {
	route, err := c.Action.Delivers.Route(c.Params)
	var unrouted *catalog.Unrouted
	if errors.As(err, &unrouted) && s.meter.Recording() {
		// Pacing is off: nothing waits for a chat's budget, so the
		// call need not name its chat; it is recorded on the account.
		err = nil
	}
	if err != nil {
		return nil, fault.Errorf(fault.CodeInvalidArgument, "%s, so %s cannot be charged to the chat SnowLuma would send it to; nothing was sent", err, c.Action.Name).Unsent()
	}
	g, announceErr, err := s.take(ctx, c, budget.Target{Chat: route.Chat, ID: route.ID})
	if err != nil {
		return nil, err
	}
	r, err := next(ctx, c)
	if err != nil {
		return nil, s.settle(err, &g)
	}
	if announceErr != nil && r != nil {
		r.Diagnostics.Note("the notification about waiting for the send budget could not be delivered: " + announceErr.Error())
	}
	return r, nil
}

// take waits until the send may go and has been charged to every budget:
// a send that waits for its target is charged to the account only when it
// goes, and when the account was spent meanwhile it takes its turn again,
// as long as the whole wait stays within the bound.
// The error of announcing the wait to the client is returned apart.
func (s Stage) take(ctx context.Context, c *pipeline.Call, t budget.Target) (g budget.Grant, announceErr, err error) {
	clock, bound := s.meter.Clock(), s.meter.Limits().Wait
	start := clock.Now()
	announced, slept := false, false
	for {
		waited := clock.Now().Sub(start)
		g = s.meter.Take(t, max(0, bound-waited))
		if g.Err != nil {
			return g, announceErr, g.Err
		}
		spent := budgetName(g.Budget)
		if !g.Ok {
			after := budget.Ceil(g.Wait)
			already := ""
			if waited > 0 {
				already = " after waiting " + seconds(waited)
			}
			return g, announceErr, fault.Errorf(fault.CodeRateLimited,
				"%s is spent: this %s could go in %s%s, longer than the %s a send may wait (SNOWLUMA_MCP_SEND_WAIT_MS); nothing was sent",
				spent, c.Action.Name, seconds(after), already, seconds(bound)).Unsent().After(after)
		}
		if g.Wait > 0 {
			slept = true
			if c.Announce != nil && !announced {
				announced = true
				announceErr = c.Announce(ctx, fmt.Sprintf("waiting %s for %s", seconds(g.Wait), spent))
			}
			if err := clock.Sleep(ctx, g.Wait); err != nil {
				s.meter.Refund(&g)
				return g, announceErr, fault.Wrap(fault.CodeCancelled, err, "cancelled while waiting for "+spent+"; nothing was sent").Unsent()
			}
		}
		if s.meter.Go(&g) {
			if slept {
				c.Held = budget.Ceil(clock.Now().Sub(start))
			}
			return g, announceErr, nil
		}
	}
}

// settle decides what a failed send costs. One that certainly never
// reached SnowLuma (refused before the request was written, a refused
// connection) gives its budgets back; any other keeps them spent, since
// SnowLuma may have sent it. The failure's message says which.
func (s Stage) settle(err error, g *budget.Grant) error {
	if fault.NothingSent(err) {
		s.meter.Refund(g)
		return noted{err, "nothing reached SnowLuma, so the send budget it was charged was given back"}
	}
	return noted{err, "the request may have reached SnowLuma, so its send budget stays spent"}
}

// noted adds what a failure did to the send budget to its message, and
// leaves the failure itself (code, outcome, cause) as it was.
type noted struct {
	err  error
	note string
}

func (n noted) Error() string { return n.err.Error() + "; " + n.note }
func (n noted) Unwrap() error { return n.err }

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
