package config

import (
	"strconv"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/lang"
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
var paceSyntax = lang.Text{EN: "must be off, or target=B+N/D and/or account=B+N/D separated by a comma " +
	"(a budget of B sends at once that refills N sends every D, a Go duration; e.g. target=3+12/1m,account=6+30/1m)",
	ZH: "只能是 off，或 target=B+N/D、account=B+N/D 中的一项或两项，用逗号分隔" +
		"（最多可连发 B 条，之后每隔 D 恢复 N 条，D 用 Go 的时长写法；例如 target=3+12/1m,account=6+30/1m）"}

// paceWhy is paceSyntax followed by what is wrong, in both languages.
func paceWhy(en, zh string) lang.Text {
	return lang.Text{EN: paceSyntax.EN + ": " + en, ZH: paceSyntax.ZH + "。" + zh}
}

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
		b, why := parseBudget(strings.TrimSpace(spec))
		switch {
		case !ok || (key != "target" && key != "account"):
			p.fail(name, paceWhy("each part is target=… or account=…", "每一项都要写成 target=… 或 account=…"))
		case seen[key]:
			p.fail(name, paceWhy(key+" is given twice", key+" 写了两次"))
		case why.EN != "":
			p.fail(name, paceWhy(key+": "+why.EN, key+"："+why.ZH))
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

// parseBudget reads B+N/D; why says what is wrong, in both languages,
// and is empty for a sound budget.
func parseBudget(s string) (_ Budget, why lang.Text) {
	burst, rate, ok := strings.Cut(s, "+")
	n, per, ok2 := strings.Cut(rate, "/")
	if !ok || !ok2 {
		return Budget{}, lang.Text{EN: "expected B+N/D", ZH: "应写成 B+N/D"}
	}
	b, err := strconv.Atoi(strings.TrimSpace(burst))
	if err != nil || b < 1 || b > 1000 {
		return Budget{}, lang.Text{EN: "the burst B must be a whole number from 1 to 1000", ZH: "连发条数 B 必须是 1 到 1000 之间的整数"}
	}
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || count < 1 || count > 100000 {
		return Budget{}, lang.Text{EN: "the refill count N must be a whole number from 1 to 100000", ZH: "恢复条数 N 必须是 1 到 100000 之间的整数"}
	}
	d, err := time.ParseDuration(strings.TrimSpace(per))
	if err != nil || d <= 0 || d > 24*time.Hour {
		return Budget{}, lang.Text{EN: "the refill period D must be a duration such as 1m or 10s, at most 24h",
			ZH: "恢复间隔 D 必须是 1m、10s 这样的时长，最长 24h"}
	}
	every := d / time.Duration(count)
	if every < time.Millisecond {
		return Budget{}, lang.Text{EN: "N/D refills faster than one send a millisecond", ZH: "N/D 的恢复速度超过了每毫秒一条"}
	}
	return Budget{Burst: b, Every: every}, lang.Text{}
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
		p.fail(name, lang.Text{EN: "must be a whole number of milliseconds from 0 to 600000", ZH: "必须是 0 到 600000 之间的整数（毫秒）"})
		return DefaultSendWait
	}
	return time.Duration(n) * time.Millisecond
}
