package handlers

import (
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// verdict judges a OneBot envelope. A failed envelope is data, not a tool
// error: the agent gets SnowLuma's own words, and the diagnostics say why.
// readOnly says the action only reads, so its next step says nothing of
// repeating writes. The kinds' words and next steps are their rows in
// fault.Verdicts.
func verdict(r *onebot.Reply, readOnly bool) pipeline.Diagnostics {
	switch {
	case r.Status == "ok" && r.Retcode == "0":
		return pipeline.Diagnostics{Outcome: pipeline.OutcomeSuccess}
	case r.Status == "async":
		return pipeline.Verdict(fault.KindAsyncAccepted, "", "", readOnly)
	case r.Status == "failed" && r.Retcode != "0" && r.Retcode != "":
		return pipeline.Verdict(fault.KindBusinessFailure, r.Wording, string(r.Retcode), readOnly)
	default:
		return pipeline.Verdict(fault.KindUnconfirmed, "", "", readOnly)
	}
}
