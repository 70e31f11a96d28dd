package handlers

import (
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// verdict judges a OneBot envelope. A failed envelope is data, not a tool
// error: the agent gets SnowLuma's own words, and the diagnostics say why.
// readOnly says the action only reads, so its next step says nothing of
// repeating writes.
func verdict(r *onebot.Reply, readOnly bool) pipeline.Diagnostics {
	switch {
	case r.Status == "ok" && r.Retcode == "0":
		return pipeline.Diagnostics{Outcome: pipeline.OutcomeSuccess}
	case r.Status == "async":
		return pipeline.Diagnostics{Outcome: pipeline.OutcomeUnknown, Kind: pipeline.KindAsyncAccepted,
			Message:  "SnowLuma accepted the action asynchronously; its result is not confirmed",
			NextStep: "Check the effect (for example with a read action) before acting on it."}
	case r.Status == "failed" && r.Retcode != "0" && r.Retcode != "":
		return pipeline.Diagnostics{Outcome: pipeline.OutcomeFailed, Kind: pipeline.KindBusinessFailure,
			Message: r.Wording, NextStep: retcodeSteps(string(r.Retcode), readOnly)}
	default:
		return pipeline.Diagnostics{Outcome: pipeline.OutcomeUnknown, Kind: pipeline.KindUnconfirmed,
			Message:  "the reply neither confirms success nor reports a failure",
			NextStep: "Inspect status and retcode in result before relying on it."}
	}
}

// retcodeSteps maps SnowLuma's documented retcodes to advice for a write,
// or for a read when readOnly.
func retcodeSteps(retcode string, readOnly bool) string {
	switch retcode {
	case "1400":
		return "SnowLuma rejected the request's parameters; fix them as the wording says (get_action shows the contract)."
	case "1404":
		return "The connected SnowLuma does not know this action: either it is older than the bundled catalog, or, when every action answers 1404 " +
			"(get_runtime_info with check_connection tells), SNOWLUMA_MCP_ENDPOINT's path is wrong and SnowLuma reads it as the action's name. " +
			"The user can correct the endpoint's path or update SnowLuma."
	case "100":
		if readOnly {
			return "The query failed inside SnowLuma or QQ; the wording says why. A query changes nothing, so it can be asked again once the cause is gone (for example with other params)."
		}
		return "The action failed inside SnowLuma or QQ; the wording says why. Do not repeat a write without checking its effect."
	default:
		return "Read status, retcode and wording in result."
	}
}
