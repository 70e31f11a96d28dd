// Package lockdown marks the third-party content in action results and,
// in lockdown, withholds it before it leaves the call: the result an agent
// reads, the text a model reads and a background task's saved record all
// come out of here already filtered. Where a result holds such content is
// the catalog's declaration (catalog.Action.ThirdParty); what counts as
// content and who may be shown is package content's, which the event
// resources use too.
//
// An action that sends an existing message again (catalog.Action.Copies:
// forward_group_single_msg, forward_friend_single_msg) makes its words the
// account's: SnowLuma stores the copy as the account's own and QQ echoes it
// as a message_sent, so no later read could tell whose they were. In
// lockdown the stage reads the message first, through the read the catalog
// names, and refuses the call when the filter would withhold anything in
// it. The stage sits before pace, so a refused copy spends no send budget,
// and SnowLuma sees only the read.
//
// Telling the account's own messages from everyone else's needs the
// account, which only SnowLuma knows: the stage remembers it from the
// first get_login_info it sees and, when a result needs it before then,
// asks SnowLuma once itself. Until an answer arrives nothing counts as
// the account's own, so lockdown withholds more, never less.
package lockdown

import (
	"context"
	"net/http"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/payload"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// loginAction names the logged-in account.
const loginAction = "get_login_info"

// Stage is the third-party content stage.
type Stage struct {
	filter  *content.Filter
	account *content.Account
	catalog *catalog.Catalog
	// bind gives a call a OneBot client with its trace headers, for what
	// the stage asks SnowLuma before bind has bound the call's own;
	// nil without a client (docs mode, where no action runs).
	bind func(http.Header) onebot.Executor
	// timeout bounds each question the stage asks SnowLuma itself, as
	// the request timeout bounds the call's own request: the stage sits
	// outside the deadline stage, so that a send's wait for its budget
	// stays outside the timeout.
	timeout time.Duration
}

// New returns the stage for the process's content policy. account is the
// logged-in account as the process knows it (nil: the stage keeps its
// own); cat names the read a copying action's source is checked with;
// client (nil in docs mode) asks SnowLuma, each question within timeout.
func New(f *content.Filter, account *content.Account, cat *catalog.Catalog, client *onebot.Client, timeout time.Duration) Stage {
	if account == nil {
		account = &content.Account{}
	}
	s := Stage{filter: f, account: account, catalog: cat, timeout: timeout}
	if client != nil {
		s.bind = client.With
	}
	return s
}

// Wrap implements pipeline.Stage: only tools that run actions can return
// anyone's words.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if t.Actions == pipeline.NoActions {
		return next
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if c.Action != nil && c.Action.Copies != nil && s.filter.Lockdown() {
			if err := s.checkCopy(ctx, c); err != nil {
				return nil, err
			}
		}
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

// self is the logged-in account, asked of SnowLuma with the call's
// client (its trace headers, within the stage's timeout) when not known
// yet; 0 when it cannot be learned now. The filter calls it only for a
// result that holds someone's words, so a failure or an empty list asks
// nothing.
func (s Stage) self(ctx context.Context, c *pipeline.Call) int64 {
	ask := s.client(c)
	if ask == nil {
		return s.account.ID()
	}
	return s.account.Resolve(ctx, func(ctx context.Context) ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, s.timeout)
		defer cancel()
		reply, err := ask.Do(ctx, loginAction, nil)
		if err != nil {
			return nil, err
		}
		return reply.Raw, nil
	})
}

// client is the call's OneBot client: the one bind attached, or, before
// bind has run, one bound to the call's trace headers; nil without
// either.
func (s Stage) client(c *pipeline.Call) onebot.Doer {
	switch {
	case c.OneBot != nil:
		return c.OneBot
	case s.bind != nil:
		return s.bind(span.Headers(c.Span))
	}
	return nil
}
