// Package envelope is the diagnostics stage: it guarantees that every call
// ends as a result with a verdict. Failures raised by any stage inside it
// (gate, validation, timeout, transport) become tool errors whose diagnostics
// kind and next step come from the failure's code, never from its wording.
package envelope

import (
	"context"
	"errors"

	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Stage is the diagnostics envelope stage.
type Stage struct{}

// New returns the stage.
func New() Stage { return Stage{} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return "envelope" }

// Wrap implements pipeline.Stage.
func (Stage) Wrap(next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		r, err := next(ctx, c)
		if err != nil {
			return Failure(c, err), nil
		}
		if r == nil {
			return Failure(c, fault.Errorf(fault.CodeInternal, "envelope", "the tool returned no result")), nil
		}
		if r.Diagnostics.Outcome == "" {
			r.Diagnostics.Outcome = pipeline.OutcomeSuccess
		}
		return r, nil
	}
}

// Failure turns err into a tool-error result.
func Failure(c *pipeline.Call, err error) *pipeline.Result {
	code := fault.CodeOf(err)
	var fe *fault.Error
	if !errors.As(err, &fe) {
		// An unclassified error is reported as internal without its text:
		// it was not written to be shown and may say more than it should.
		err = errors.New("internal error")
	}
	return &pipeline.Result{
		IsError: true,
		Text:    err.Error(),
		Diagnostics: pipeline.Diagnostics{
			Outcome:  outcomeOf(c, code),
			Kind:     string(code),
			Message:  err.Error(),
			NextStep: nextSteps[code],
		},
	}
}

// outcomeOf decides between failed and unknown. A write whose request may
// have reached SnowLuma before the wait broke off might have taken effect.
func outcomeOf(c *pipeline.Call, code fault.Code) pipeline.Outcome {
	if c.Action == nil || c.Action.ReadOnly {
		return pipeline.OutcomeFailed
	}
	switch code {
	case fault.CodeTimeout, fault.CodeCancelled, fault.CodeTransport, fault.CodeUpstreamHTTP, fault.CodeBadReply, fault.CodeLimit:
		return pipeline.OutcomeUnknown
	}
	return pipeline.OutcomeFailed
}

var nextSteps = map[fault.Code]string{
	fault.CodeInvalidArgument: "Correct the arguments as described; get_action shows the action's parameters and an example.",
	fault.CodeModeDenied:      "This server's mode does not allow the call. The user can change SNOWLUMA_MCP_MODE (and SNOWLUMA_MCP_ENDPOINT) in the MCP client configuration.",
	fault.CodeUnknownAction:   "Find the right name with search_actions or list_actions.",
	fault.CodeWrongTool:       "Use invoke_action for write and stream actions; it needs write mode.",
	fault.CodeInputDeclined:   "Nothing was executed. Call again with complete params if the user agrees.",
	fault.CodeCancelled:       "The wait was cancelled. For a write, check whether it took effect before calling again.",
	fault.CodeTimeout:         "SnowLuma did not answer in time. For a write, check whether it took effect before calling again; nothing was retried.",
	fault.CodeTransport:       "Check that SnowLuma is running and SNOWLUMA_MCP_ENDPOINT points at its HTTP server. Nothing was retried.",
	fault.CodeUpstreamAuth:    "SnowLuma rejected the access token: SNOWLUMA_MCP_TOKEN must equal SnowLuma's accessToken.",
	fault.CodeUpstreamHTTP:    "SnowLuma reported a server error; follow the traceparent into its logs. Nothing was retried.",
	fault.CodeBadReply:        "SnowLuma's reply was not a OneBot envelope; check that SNOWLUMA_MCP_ENDPOINT is SnowLuma's OneBot HTTP server.",
	fault.CodeStreamFailed:    "SnowLuma reported the failure in the stream's terminal frame; the message carries its retcode and reason.",
	fault.CodeStreamBroken:    "The stream broke off or contradicted itself (ended early, chunks out of order, or sizes that disagree); a partial download was deleted, an upload was reset, and nothing was retried. The call can be repeated.",
	fault.CodeLimit:           "The call crossed a configured limit; get_runtime_info shows the effective limits.",
	fault.CodeUnsupported:     "This server version cannot do that yet; see the message.",
	fault.CodeInternal:        "An internal error occurred in snowluma-mcp; the call can be repeated if it was read-only.",
}
