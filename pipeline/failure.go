package pipeline

import (
	"errors"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

// Failure turns err into a tool-error result with a verdict: the kind and the
// next step come from the failure's code, never from its wording, and the
// outcome says whether SnowLuma may have acted. The envelope stage applies it
// to every failure of a call; a handler reporting a sub-step (a connection
// check) uses it too, so both read the same.
func Failure(c *Call, err error) *Result {
	code := fault.CodeOf(err)
	var fe *fault.Error
	if !errors.As(err, &fe) {
		// An unclassified error is reported as internal without its text:
		// it was not written to be shown and may say more than it should.
		err = errors.New("internal error")
	}
	next := fault.NextOf(err)
	if next == "" {
		next = NextStep(code)
	}
	return &Result{
		IsError: true,
		Text:    err.Error(),
		Diagnostics: Diagnostics{
			Outcome:      outcomeOf(c, code, fault.NothingSent(err)),
			Kind:         string(code),
			Message:      err.Error(),
			NextStep:     next,
			RetryAfterMS: fault.RetryAfterOf(err).Milliseconds(),
		},
	}
}

// outcomeOf decides between failed and unknown. Only a write whose request
// may have reached SnowLuma before the wait broke off might have taken
// effect; a read, a refusal before sending, or a failure that says nothing
// was sent did not.
func outcomeOf(c *Call, code fault.Code, nothingSent bool) Outcome {
	if c == nil || c.Action == nil || c.Action.ReadOnly || nothingSent {
		return OutcomeFailed
	}
	switch code {
	case fault.CodeTimeout, fault.CodeCancelled, fault.CodeTransport, fault.CodeUpstreamHTTP, fault.CodeBadReply:
		return OutcomeUnknown
	}
	return OutcomeFailed
}

// NextStep is the advice for a failure code.
func NextStep(code fault.Code) string { return nextSteps[code] }

var nextSteps = map[fault.Code]string{
	fault.CodeInvalidArgument: "Correct the arguments as described; get_action shows the action's parameters and an example.",
	fault.CodeModeDenied:      "This server's mode does not allow the call. The user can change SNOWLUMA_MCP_MODE (and SNOWLUMA_MCP_ENDPOINT) in the MCP client configuration.",
	fault.CodeUnknownAction:   "Find the right name with search_actions or list_actions.",
	fault.CodeWrongTool:       "Use invoke_action for write and stream actions; it needs write mode.",
	fault.CodeInputDeclined:   "Nothing was executed. Call again with complete params if the user agrees.",
	fault.CodeCancelled:       "The wait was cancelled. For a write, check whether it took effect before calling again.",
	fault.CodeTimeout:         "SnowLuma did not answer in time. For a write, check whether it took effect before calling again; nothing was retried.",
	fault.CodeTransport:       "Check that SnowLuma is running and SNOWLUMA_MCP_ENDPOINT points at its HTTP server. Nothing was retried.",
	fault.CodeUpstreamAuth:    "SnowLuma rejected the access token: SNOWLUMA_MCP_TOKEN must equal the token of SnowLuma's HTTP server (" + onebot.InWebUI(onebot.NodeHTTP, onebot.FieldToken) + "); only the user can change it, in this server's entry in the MCP client configuration.",
	fault.CodeUpstreamHTTP:    "SnowLuma answered with an HTTP error status (the message gives it and SnowLuma's wording): a 5xx is a failure inside SnowLuma, so follow the traceparent into its logs. Nothing was retried.",
	fault.CodeWrongEndpoint:   "Nothing ran in SnowLuma. SNOWLUMA_MCP_ENDPOINT does not lead to SnowLuma's OneBot HTTP server as the message explains; only the user can correct it in the MCP client configuration (the HTTP server's port, 3000 by default, and its path, / by default).",
	fault.CodeConfiguration:   "A setting this call needs is wrong, as the message says, and the call fails the same way until it is corrected: tell the user, who can correct that variable in the MCP client configuration (then restart the server).",
	fault.CodeBadReply:        "SnowLuma's reply was not a OneBot envelope; check that SNOWLUMA_MCP_ENDPOINT is SnowLuma's OneBot HTTP server.",
	fault.CodeStreamFailed:    "SnowLuma reported the failure in the stream's terminal frame; the message carries its retcode and reason.",
	fault.CodeStreamBroken:    "The stream broke off or contradicted itself (ended early, chunks out of order, or sizes that disagree); a partial download was deleted, an upload was reset, and nothing was retried. The call can be repeated.",
	fault.CodeLimit:           "The call crossed a configured limit; get_runtime_info shows the effective limits.",
	fault.CodeEventConnection: "The event WebSocket could not be opened or has ended (the message says why); nothing reconnects on its own. Check SnowLuma's WebSocket server and SNOWLUMA_MCP_EVENTS_URL, release existing event resources with unsubscribe_events, then subscribe again.",
	fault.CodeUnsupported:     "This server version cannot do that yet; see the message.",
	fault.CodeInternal:        "An internal error occurred in snowluma-mcp; the call can be repeated if it was read-only.",
	fault.CodeRateLimited:     "Nothing was sent. Wait at least retry_after_ms before sending to that chat again, and send less at once: this server paces deliveries so QQ's risk control does not restrict the user's account. get_runtime_info shows what is left of each send budget; the user can tune SNOWLUMA_MCP_SEND_PACE and SNOWLUMA_MCP_SEND_WAIT_MS.",
	fault.CodeLockdown:        "Nothing was sent. Lockdown does not let the account send again words it withholds from you: sent from the account, they would read as the account's own. Do not try another way to repeat them; tell the user what you meant to send, and they can forward it themselves or, if they trust its author, add that QQ number to SNOWLUMA_MCP_TRUSTED_USERS.",
}
