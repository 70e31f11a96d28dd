package pipeline

import "github.com/snowluma/snowluma-mcp/internal/fault"

// The diagnostics kinds that are not failure codes: verdicts on an answer
// that did arrive (SnowLuma's envelope, a connection check) and the pause
// of a call that waits for the user's input. They are named here, beside
// the failure codes, so that Kinds is the whole list an agent can meet.
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

// Kinds is every diagnostics kind the server can emit: each failure code,
// then the verdicts above. The README documents each of them, and a test
// (e2e's TestReadmeNamesEveryDiagnosticsKind) keeps it so.
func Kinds() []string {
	var out []string
	for _, c := range fault.Codes() {
		out = append(out, string(c))
	}
	return append(out, KindBusinessFailure, KindAsyncAccepted, KindUnconfirmed, KindConnectionCheckFailed, KindInputRequired)
}
