package lockdown

import (
	"context"
	"encoding/json"

	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// checkCopy reads the message a copying call would send again, with the
// read the catalog names and the call's own value of the param, and
// refuses the call (nothing sent) unless lockdown would show every word of
// it: the account's own message or a trusted user's, with no forward node
// in it. Whatever keeps the stage from knowing (the read fails, its answer
// cannot be read, the account is not known) refuses too: lockdown fails
// closed.
func (s Stage) checkCopy(ctx context.Context, c *pipeline.Call) error {
	name, cp := c.Action.Name, c.Action.Copies
	source, err := cp.Source(c.Params)
	if err != nil {
		return fault.Errorf(fault.CodeInvalidArgument, "%s, so %s cannot be checked for words lockdown withholds; nothing was sent", err, name).Unsent()
	}
	read, ok := s.catalog.Lookup(cp.Read)
	ask := s.client(c)
	if !ok || ask == nil {
		return fault.Errorf(fault.CodeInternal, "%s cannot be checked for words lockdown withholds: %s cannot be run here; nothing was sent", name, cp.Read).Unsent()
	}
	var named map[string]json.RawMessage
	_ = json.Unmarshal(source, &named)
	id := string(named[cp.Param])
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	reply, err := ask.Do(rctx, read.Name, source)
	cancel()
	if err != nil {
		return fault.Wrap(fault.CodeOf(err), err, "lockdown reads the message "+name+" would send again before sending it, and "+read.Name+" failed; nothing was sent").Unsent()
	}
	if reply.Status != "ok" {
		return fault.Errorf(fault.CodeLockdown,
			"lockdown reads the message %s would send again before sending it, and %s of message %s failed (retcode %s: %s), so who wrote it is not known; nothing was sent",
			name, read.Name, id, reply.Retcode, quoted(reply.Wording)).Unsent()
	}
	why, err := s.filter.Withholds(reply.Raw, read.ThirdParty, func() int64 { return s.self(ctx, c) })
	if err != nil {
		return fault.Wrap(fault.CodeBadReply, err, read.Name+"'s answer could not be checked for words lockdown withholds, so "+name+" was not sent").Unsent()
	}
	if why != "" {
		return fault.Errorf(fault.CodeLockdown,
			"lockdown withholds words in message %s (%s: %s); %s would send them again from the account, where they would read as the account's own, so nothing was sent",
			id, why, content.Explain(why), name).Unsent()
	}
	return nil
}

// quoted is SnowLuma's wording as the message repeats it: bounded, and
// "none" when there is none.
func quoted(wording string) string {
	if wording == "" {
		return "no wording"
	}
	shown, cut := fault.Prefix(wording, fault.QuoteLimit)
	if cut {
		shown += "…"
	}
	return shown
}
