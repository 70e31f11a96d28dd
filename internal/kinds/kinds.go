// Package kinds lists every diagnostics kind the server can emit, for the
// tests that hold each kind to its duties (a next step for the agent) and
// for the docs' diagnostics tables, which cmd/docgen writes from it with
// each kind's words (describe.go). The server itself never needs the
// list, so it lives here rather than in fault or pipeline; kinds_test.go
// holds it to the constants those packages declare.
package kinds

import (
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Codes is every failure code.
func Codes() []fault.Code {
	return []fault.Code{
		fault.CodeInvalidArgument, fault.CodeModeDenied, fault.CodeUnknownAction, fault.CodeWrongTool, fault.CodeInputDeclined,
		fault.CodeCancelled, fault.CodeTimeout, fault.CodeTransport, fault.CodeUpstreamHTTP, fault.CodeUpstreamAuth, fault.CodeBadReply,
		fault.CodeStreamFailed, fault.CodeStreamBroken, fault.CodeLimit, fault.CodeEventConnection, fault.CodeUnsupported, fault.CodeInternal,
		fault.CodeRateLimited, fault.CodeWrongEndpoint, fault.CodeConfiguration, fault.CodeLockdown,
	}
}

// Verdicts is every kind that is not a failure code: pipeline's verdicts
// on an answer that did arrive, and the pause of a call waiting for input.
func Verdicts() []string {
	return []string{pipeline.KindBusinessFailure, pipeline.KindAsyncAccepted, pipeline.KindUnconfirmed,
		pipeline.KindConnectionCheckFailed, pipeline.KindInputRequired}
}

// All is every diagnostics kind: each failure code, then the verdicts.
func All() []string {
	var out []string
	for _, c := range Codes() {
		out = append(out, string(c))
	}
	return append(out, Verdicts()...)
}
