package pipeline

// The diagnostics kinds that are not failure codes: verdicts on an answer
// that did arrive (SnowLuma's envelope, a connection check) and the pause
// of a call that waits for the user's input. They are named here, beside
// the failure codes, so that the failure codes and these are the whole list an agent can
// meet (internal/kinds lists them for the tests).
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
