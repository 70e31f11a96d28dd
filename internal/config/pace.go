package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SendPace is how fast the server lets an agent deliver things to chats
// and people (see catalog.Delivery): one budget per target and one for the
// whole account, and how long a send may wait for them.
type SendPace struct {
	// Off turns pacing off (SNOWLUMA_MCP_SEND_PACE=off).
	Off bool
	// Target is each group's and each user's own budget.
	Target Budget
	// Account is the budget all deliveries share.
	Account Budget
	// Wait is the longest a send waits for its budgets; one that would
	// wait longer is refused at once (SNOWLUMA_MCP_SEND_WAIT_MS).
	Wait time.Duration
}

// Budget is a token bucket: Burst sends at once, then one more every Every.
type Budget struct {
	Burst int
	Every time.Duration
}

// The defaults. QQ publishes no limits, so they are set well below what
// bot frameworks allow and what one person types: a chat gets 3 messages at
// once and then one every 5 s (12 a minute, under Telegram's 20 a minute
// for a group); the account gets 6 at once and then one every 2 s (30 a
// minute, half of the 1 a second go-cqhttp's token bucket offers when
// enabled). A send waits at most 5 s, long enough to ride out a short
// burst, short enough that a client's own timeout never fires first.
var (
	DefaultTargetBudget  = Budget{Burst: 3, Every: 5 * time.Second}
	DefaultAccountBudget = Budget{Burst: 6, Every: 2 * time.Second}
	DefaultSendWait      = 5 * time.Second
)

// MaxSendWait is the longest SNOWLUMA_MCP_SEND_WAIT_MS accepts. Servers
// sharing one account's budgets may each set another wait, and a reader of
// their state must know how far ahead any of them may have charged a
// waiting send: this bound is the one every writer agrees on.
const MaxSendWait = 10 * time.Minute

// paceSyntax is what SNOWLUMA_MCP_SEND_PACE accepts, for its error.
const paceSyntax = "must be off, or target=B+N/D and/or account=B+N/D separated by a comma " +
	"(a budget of B sends at once that refills N sends every D, a Go duration; e.g. target=3+12/1m,account=6+30/1m)"

// sendPace reads SNOWLUMA_MCP_SEND_PACE and SNOWLUMA_MCP_SEND_WAIT_MS. A
// budget the variable leaves out keeps its default.
func (p *parser) sendPace() SendPace {
	const name = "SNOWLUMA_MCP_SEND_PACE"
	sp := SendPace{Target: DefaultTargetBudget, Account: DefaultAccountBudget, Wait: p.sendWait()}
	v := p.value(name)
	if strings.EqualFold(v, "off") {
		sp.Off = true
		return sp
	}
	if v == "" {
		return sp
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(v, ",") {
		key, spec, ok := strings.Cut(strings.TrimSpace(part), "=")
		key = strings.ToLower(strings.TrimSpace(key))
		b, err := parseBudget(strings.TrimSpace(spec))
		switch {
		case !ok || (key != "target" && key != "account"):
			p.fail(name, paceSyntax+": each part is target=… or account=…")
		case seen[key]:
			p.fail(name, paceSyntax+": "+key+" is given twice")
		case err != nil:
			p.fail(name, paceSyntax+": "+key+": "+err.Error())
		}
		if p.err != nil {
			return sp
		}
		seen[key] = true
		if key == "target" {
			sp.Target = b
		} else {
			sp.Account = b
		}
	}
	return sp
}

// parseBudget reads B+N/D.
func parseBudget(s string) (Budget, error) {
	burst, rate, ok := strings.Cut(s, "+")
	n, per, ok2 := strings.Cut(rate, "/")
	if !ok || !ok2 {
		return Budget{}, fmt.Errorf("expected B+N/D")
	}
	b, err := strconv.Atoi(strings.TrimSpace(burst))
	if err != nil || b < 1 || b > 1000 {
		return Budget{}, fmt.Errorf("the burst B must be a whole number from 1 to 1000")
	}
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || count < 1 || count > 100000 {
		return Budget{}, fmt.Errorf("the refill count N must be a whole number from 1 to 100000")
	}
	d, err := time.ParseDuration(strings.TrimSpace(per))
	if err != nil || d <= 0 || d > 24*time.Hour {
		return Budget{}, fmt.Errorf("the refill period D must be a duration such as 1m or 10s, at most 24h")
	}
	every := d / time.Duration(count)
	if every < time.Millisecond {
		return Budget{}, fmt.Errorf("N/D refills faster than one send a millisecond")
	}
	return Budget{Burst: b, Every: every}, nil
}

// sendWait reads SNOWLUMA_MCP_SEND_WAIT_MS: 0 refuses every send that
// would have to wait; at most 10 minutes.
func (p *parser) sendWait() time.Duration {
	const name = "SNOWLUMA_MCP_SEND_WAIT_MS"
	v := p.value(name)
	if v == "" {
		return DefaultSendWait
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > MaxSendWait.Milliseconds() {
		p.fail(name, "must be a whole number of milliseconds from 0 to 600000")
		return DefaultSendWait
	}
	return time.Duration(n) * time.Millisecond
}
