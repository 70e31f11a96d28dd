package pipeline

import "github.com/snowluma/snowluma-mcp/internal/lang"

// The diagnostics kinds that are not failure codes: verdicts on an answer
// that did arrive (SnowLuma's envelope, a connection check) and the pause
// of a call that waits for the user's input. Each has a row in verdicts,
// so that codes and verdicts are the whole list an agent can meet
// (codes_test.go holds both tables to the constants declared).
const (
	// KindBusinessFailure: SnowLuma answered status "failed" with a retcode.
	KindBusinessFailure = "business_failure"
	// KindAsyncAccepted: SnowLuma answered status "async"; the effect is
	// not confirmed.
	KindAsyncAccepted = "async_accepted"
	// KindUnconfirmed: an envelope that neither confirms success nor
	// reports a failure.
	KindUnconfirmed = "unconfirmed"
	// KindConnectionCheckFailed: some of get_runtime_info's connection
	// checks failed, for different reasons.
	KindConnectionCheckFailed = "connection_check_failed"
	// KindInputRequired: a 2026-07-28 call answered with input_required,
	// waiting for the user's answer (seen in the call log line).
	KindInputRequired = "input_required"
)

// Described is one diagnostics kind as the docs' tables show it: its
// outcome, what happened and the usual next step for a person, in both
// languages.
type Described struct {
	Kind                   string
	Outcome, Happened, Fix lang.Text
}

// verdict is a kind that is not a failure code, with the one outcome it
// always has; its next step for the agent depends on SnowLuma's answer
// (handlers/verdict.go), so only the docs' words live here.
type verdict struct {
	Kind          string
	Outcome       Outcome
	Happened, Fix lang.Text
}

// Kinds is every diagnostics kind an agent can meet, each failure code
// (in the order of Codes) and then each verdict: the docs' tables are
// written from it.
func Kinds() []Described { return codes.kinds() }

// kinds describes t's codes, then the verdicts.
func (t Table) kinds() []Described {
	out := make([]Described, 0, len(t)+len(verdicts))
	for _, f := range t {
		outcome := lang.Text{EN: "failed", ZH: "failed"}
		if f.MayAct {
			outcome = lang.Text{EN: "failed, or unknown for a write already sent", ZH: "failed，写操作已发出时为 unknown"}
		}
		out = append(out, Described{Kind: string(f.Code), Outcome: outcome, Happened: f.Happened, Fix: f.Fix})
	}
	for _, v := range verdicts {
		out = append(out, Described{Kind: v.Kind, Outcome: lang.Text{EN: string(v.Outcome), ZH: string(v.Outcome)}, Happened: v.Happened, Fix: v.Fix})
	}
	return out
}

var verdicts = []verdict{
	{Kind: KindBusinessFailure, Outcome: OutcomeFailed,
		Happened: lang.Text{EN: "SnowLuma answered `status: \"failed\"`: `1400` bad params, `1404` an action this SnowLuma does not know (for every action: a wrong endpoint path, see `wrong_endpoint`), `100` the action failed inside SnowLuma or QQ",
			ZH: "SnowLuma 返回 `status: \"failed\"`：`1400` 参数错误，`1404` 这个版本的 SnowLuma 不认识该动作（如果每个动作都这样：endpoint 路径不对，见 `wrong_endpoint`），`100` 动作在 SnowLuma 或 QQ 内部失败"},
		Fix: lang.Text{EN: "read `wording` in `result`; do not repeat a write without checking its effect",
			ZH: "看 `result` 里的 `wording`；写操作没确认效果前不要重做"}},
	{Kind: KindAsyncAccepted, Outcome: OutcomeUnknown,
		Happened: lang.Text{EN: "SnowLuma accepted the action asynchronously; its result is not confirmed",
			ZH: "SnowLuma 已异步受理该动作；结果没有得到确认"},
		Fix: lang.Text{EN: "check the effect before acting on it",
			ZH: "依赖它之前先确认效果"}},
	{Kind: KindUnconfirmed, Outcome: OutcomeUnknown,
		Happened: lang.Text{EN: "SnowLuma's reply neither confirms success nor reports a failure",
			ZH: "SnowLuma 的应答既没有确认成功，也没有报告失败"},
		Fix: lang.Text{EN: "read `status` and `retcode` in `result` before relying on it",
			ZH: "依赖它之前先看 `result` 里的 `status` 和 `retcode`"}},
	{Kind: KindConnectionCheckFailed, Outcome: OutcomeFailed,
		Happened: lang.Text{EN: "some of `check_connection`'s checks failed, for different reasons",
			ZH: "`check_connection` 的部分检查失败了，且原因各不相同"},
		Fix: lang.Text{EN: "read `checks.<name>.diagnostics` for each",
			ZH: "分别查看每项的 `checks.<name>.diagnostics`"}},
	{Kind: KindInputRequired, Outcome: OutcomeUnknown,
		Happened: lang.Text{EN: "a 2026-07-28 call is waiting for the user's answer (seen in the stderr call log; the client gets `resultType: \"input_required\"`)",
			ZH: "一个使用 2026-07-28 版协议的调用正在等待用户回答（见于 stderr 调用日志；客户端收到的是 `resultType: \"input_required\"`）"},
		Fix: lang.Text{EN: "retry with `requestState` and `inputResponses` (see [Input completion](tools.md#input-completion))",
			ZH: "带上 `requestState` 和 `inputResponses` 再次调用（见“[缺少参数时询问用户](tools.md#缺少参数时询问用户)”）"}},
}
