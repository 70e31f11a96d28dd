// Package thirdparty marks the third-party content in action results and,
// in lockdown, withholds it before it leaves the call: the result an agent
// reads, the text a model reads and a background task's saved record all
// come out of here already filtered. Where a result holds such content is
// the catalog's declaration (catalog.Action.ThirdParty); what counts as
// content and who may be shown is package content's, which the event
// resources use too.
//
// Telling the account's own messages from everyone else's needs the
// account, which only SnowLuma knows: the stage remembers it from the
// first get_login_info it sees and, when a result needs it before then,
// asks SnowLuma once itself. Until an answer arrives nothing counts as
// the account's own, so lockdown withholds more, never less.
package thirdparty

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/payload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// loginAction names the logged-in account.
const loginAction = "get_login_info"

// Stage is the third-party content stage.
type Stage struct {
	filter  *content.Filter
	account *content.Account
}

// New returns the stage for the process's content policy.
func New(f *content.Filter) Stage { return Stage{filter: f, account: &content.Account{}} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return "thirdparty" }

// Acts implements pipeline.Stage: only the work's result holds anyone's words.
func (Stage) Acts() pipeline.Acts { return pipeline.InWork }

// Wrap implements pipeline.Stage: only tools that run actions can return
// anyone's words.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if t.Actions == pipeline.NoActions {
		return next
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		r, err := next(ctx, c)
		if err != nil || r == nil || c.Action == nil {
			return r, err
		}
		if c.Action.Name == loginAction {
			if raw, err := payload.Encode(r.Payload); err == nil {
				s.account.Learn(raw)
			}
		}
		if len(c.Action.ThirdParty) == 0 {
			return r, nil
		}
		raw, err := payload.Encode(r.Payload)
		if err == nil {
			raw, err = s.filter.Result(raw, c.Action.ThirdParty, func() int64 { return s.self(ctx, c) })
		}
		if err != nil {
			// Whatever it was, it did not pass the filter, so it does not
			// leave; the read itself did happen.
			return nil, fault.Wrap(fault.CodeBadReply, err, c.Action.Name+"'s result could not be checked for third-party content, so it was withheld")
		}
		r.Payload = raw
		return r, nil
	}
}

// self is the logged-in account, asked of SnowLuma with the call's own
// client (its trace headers and its deadline) when not known yet; 0 when
// it cannot be learned now. The filter calls it only for a result that
// holds someone's words, so a failure or an empty list asks nothing.
func (s Stage) self(ctx context.Context, c *pipeline.Call) int64 {
	if c.OneBot == nil {
		return s.account.ID()
	}
	return s.account.Resolve(ctx, func(ctx context.Context) ([]byte, error) {
		reply, err := c.OneBot.Do(ctx, loginAction, nil)
		if err != nil {
			return nil, err
		}
		return reply.Raw, nil
	})
}
