package pipeline

import (
	"errors"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Failure turns err into a tool-error result with a verdict: the kind, the
// outcome and the next step come from the failure's code (its row of
// fault.Codes), never from its wording, unless the failure names a next step of
// its own cause. The diagnostics stage applies it to every failure of a call;
// a handler reporting a sub-step (a connection check) uses it too, so both
// read the same.
func Failure(c *Call, err error) *Result { return failure(fault.Codes, c, err) }

// NextStep is the agent's default next step for a failure code.
func NextStep(code fault.Code) string { return fault.Codes.Of(code).Next }

// failure is Failure over the codes of t.
func failure(t fault.Table, c *Call, err error) *Result {
	f := t.Of(fault.CodeOf(err))
	var fe *fault.Error
	if !errors.As(err, &fe) {
		// An unclassified error is reported as internal without its text:
		// it was not written to be shown and may say more than it should.
		err = errors.New("internal error")
	}
	read := c != nil && c.Action != nil && c.Action.ReadOnly
	next := fault.NextOf(err)
	if next == "" && read && f.NextForRead != "" {
		next = f.NextForRead
	}
	if next == "" {
		next = f.Next
	}
	return &Result{
		IsError: true,
		Text:    err.Error(),
		Diagnostics: Diagnostics{
			Outcome:      outcomeOf(c, f, fault.NothingSent(err)),
			Kind:         string(f.Code),
			Message:      err.Error(),
			NextStep:     next,
			RetryAfterMS: fault.RetryAfterOf(err).Milliseconds(),
		},
	}
}

// outcomeOf decides between failed and unknown. Only a write whose request
// may have reached SnowLuma before the failure (a code that MayAct) might
// have taken effect; a read, a refusal before sending, or a failure that
// says nothing was sent did not.
func outcomeOf(c *Call, f fault.Facts, nothingSent bool) Outcome {
	if c == nil || c.Action == nil || c.Action.ReadOnly || nothingSent || !f.MayAct {
		return OutcomeFailed
	}
	return OutcomeUnknown
}

// Verdict is the diagnostics of a verdict kind (fault.Verdicts): its one
// outcome, and its row's message and next step (for SnowLuma's retcode,
// for a read when readOnly) unless message is given by the answer.
func Verdict(kind, message, retcode string, readOnly bool) Diagnostics {
	v := fault.VerdictOf(kind)
	if message == "" {
		message = v.Message
	}
	return Diagnostics{Outcome: Outcome(v.Outcome), Kind: v.Kind, Message: message, NextStep: v.NextFor(retcode, readOnly)}
}
