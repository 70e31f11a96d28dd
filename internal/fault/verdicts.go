package fault

import "github.com/snowluma/snowluma-mcp/internal/lang"

// Verdict is a diagnostics kind that is not a failure code: a verdict on
// an answer that did arrive (SnowLuma's envelope, a connection check) or
// the pause of a call that waits for the user's input. With Codes it is
// the whole list of kinds an agent can meet.
type Verdict struct {
	Kind string
	// Outcome is the one outcome the kind always has, "failed" or
	// "unknown" (pipeline's Outcome).
	Outcome string
	// Message is the agent's message when the kind has words of its own;
	// a kind whose message comes from the answer (SnowLuma's wording, the
	// failed checks) leaves it empty.
	Message string
	// Next is the agent's next step; Retcodes, when one matches SnowLuma's
	// retcode, replace it.
	Next     string
	Retcodes []Retcode
	// Happened and Fix are the docs' words, as for a code.
	Happened, Fix lang.Text
}

// Retcode is the agent's next step for one of SnowLuma's documented
// retcodes; NextForRead, when set, replaces Next for a read-only action.
type Retcode struct {
	Retcode, Next, NextForRead string
}

// NextFor is the agent's next step for SnowLuma's retcode, for a read
// when readOnly.
func (v Verdict) NextFor(retcode string, readOnly bool) string {
	for _, r := range v.Retcodes {
		if r.Retcode != retcode {
			continue
		}
		if readOnly && r.NextForRead != "" {
			return r.NextForRead
		}
		return r.Next
	}
	return v.Next
}

// Verdicts is every verdict kind, in the order declared below: each kind
// is declared by its row (verdict), as each code is.
var Verdicts []Verdict

// verdict adds v to Verdicts and returns its kind.
func verdict(v Verdict) string {
	Verdicts = append(Verdicts, v)
	return v.Kind
}

// VerdictOf returns kind's row, or a row with only the kind when it is
// not a verdict.
func VerdictOf(kind string) Verdict {
	for _, v := range Verdicts {
		if v.Kind == kind {
			return v
		}
	}
	return Verdict{Kind: kind}
}

// The verdict kinds, each with its row.
var (
	// KindBusinessFailure is SnowLuma answering status "failed" with a
	// retcode; the message is SnowLuma's wording, and the next step the
	// retcode's.
	KindBusinessFailure = verdict(Verdict{Kind: "business_failure", Outcome: "failed",
		Next: "Read status, retcode and wording in result.",
		Retcodes: []Retcode{
			{Retcode: "1400", Next: "SnowLuma rejected the request's parameters; fix them as the wording says (get_action shows the contract)."},
			{Retcode: "1404", Next: "The connected SnowLuma does not know this action: either it is older than the bundled catalog, or, when every action answers 1404 " +
				"(get_runtime_info with check_connection tells), SNOWLUMA_MCP_ENDPOINT's path is wrong and SnowLuma reads it as the action's name. " +
				"The user can correct the endpoint's path or update SnowLuma."},
			{Retcode: "100", Next: "The action failed inside SnowLuma or QQ; the wording says why. Do not repeat a write without checking its effect.",
				NextForRead: "The query failed inside SnowLuma or QQ; the wording says why. A query changes nothing, so it can be asked again once the cause is gone (for example with other params)."},
		},
		Happened: lang.Text{EN: "SnowLuma answered `status: \"failed\"`: `1400` bad params, `1404` an action this SnowLuma does not know (for every action: a wrong endpoint path, see `wrong_endpoint`), `100` the action failed inside SnowLuma or QQ",
			ZH: "SnowLuma 返回 `status: \"failed\"`：`1400` 参数错误，`1404` 这个版本的 SnowLuma 不认识该动作（如果每个动作都这样：endpoint 路径不对，见 `wrong_endpoint`），`100` 动作在 SnowLuma 或 QQ 内部失败"},
		Fix: lang.Text{EN: "read `wording` in `result`; do not repeat a write without checking its effect",
			ZH: "看 `result` 里的 `wording`；写操作没确认效果前不要重做"}})

	// KindAsyncAccepted is SnowLuma answering status "async"; the effect is not
	// confirmed.
	KindAsyncAccepted = verdict(Verdict{Kind: "async_accepted", Outcome: "unknown",
		Message: "SnowLuma accepted the action asynchronously; its result is not confirmed",
		Next:    "Check the effect (for example with a read action) before acting on it.",
		Happened: lang.Text{EN: "SnowLuma accepted the action asynchronously; its result is not confirmed",
			ZH: "SnowLuma 已异步受理该动作；结果没有得到确认"},
		Fix: lang.Text{EN: "check the effect before acting on it",
			ZH: "依赖它之前先确认效果"}})

	// KindUnconfirmed is an envelope that neither confirms success nor reports a
	// failure.
	KindUnconfirmed = verdict(Verdict{Kind: "unconfirmed", Outcome: "unknown",
		Message: "the reply neither confirms success nor reports a failure",
		Next:    "Inspect status and retcode in result before relying on it.",
		Happened: lang.Text{EN: "SnowLuma's reply neither confirms success nor reports a failure",
			ZH: "SnowLuma 的应答既没有确认成功，也没有报告失败"},
		Fix: lang.Text{EN: "read `status` and `retcode` in `result` before relying on it",
			ZH: "依赖它之前先看 `result` 里的 `status` 和 `retcode`"}})

	// KindConnectionCheckFailed is some of get_runtime_info's connection checks
	// failing, for different reasons; the message names them.
	KindConnectionCheckFailed = verdict(Verdict{Kind: "connection_check_failed", Outcome: "failed",
		Next: "Read checks.<name>.diagnostics for each failed check's cause and advice.",
		Happened: lang.Text{EN: "some of `check_connection`'s checks failed, for different reasons",
			ZH: "`check_connection` 的部分检查失败了，且原因各不相同"},
		Fix: lang.Text{EN: "read `checks.<name>.diagnostics` for each",
			ZH: "分别查看每项的 `checks.<name>.diagnostics`"}})

	// KindInputRequired is a 2026-07-28 call answered with input_required,
	// waiting for the user's answer (seen in the call log line); the
	// client, not the agent, acts on it, so it has no message or next step.
	KindInputRequired = verdict(Verdict{Kind: "input_required", Outcome: "unknown",
		Happened: lang.Text{EN: "a 2026-07-28 call is waiting for the user's answer (seen in the stderr call log; the client gets `resultType: \"input_required\"`)",
			ZH: "一个使用 2026-07-28 版协议的调用正在等待用户回答（见于 stderr 调用日志；客户端收到的是 `resultType: \"input_required\"`）"},
		Fix: lang.Text{EN: "retry with `requestState` and `inputResponses` (see [Input completion](tools.md#input-completion))",
			ZH: "带上 `requestState` 和 `inputResponses` 再次调用（见“[缺少参数时询问用户](tools.md#缺少参数时询问用户)”）"}})
)

// Described is one diagnostics kind as the docs' tables show it: its
// outcome, what happened and the usual next step for a person, in both
// languages.
type Described struct {
	Kind                   string
	Outcome, Happened, Fix lang.Text
}

// Kinds is every diagnostics kind an agent can meet, each failure code (in
// the order of Codes) and then each verdict: the docs' tables are written
// from it.
func Kinds() []Described { return Codes.Kinds() }

// Kinds describes t's codes, then the verdicts.
func (t Table) Kinds() []Described {
	out := make([]Described, 0, len(t)+len(Verdicts))
	for _, f := range t {
		outcome := lang.Text{EN: "failed", ZH: "failed"}
		if f.MayAct {
			outcome = lang.Text{EN: "failed, or unknown for a write already sent", ZH: "failed，写操作已发出时为 unknown"}
		}
		out = append(out, Described{Kind: string(f.Code), Outcome: outcome, Happened: f.Happened, Fix: f.Fix})
	}
	for _, v := range Verdicts {
		out = append(out, Described{Kind: v.Kind, Outcome: lang.Text{EN: v.Outcome, ZH: v.Outcome}, Happened: v.Happened, Fix: v.Fix})
	}
	return out
}
