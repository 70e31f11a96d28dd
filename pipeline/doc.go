// Package pipeline defines the trip every tool call takes: a Tool that
// declares its policy once, a Call that carries the per-call state, a Handler
// that does a tool's one job, and Stages that wrap handlers with the
// cross-cutting concerns (tracing, gating, validation, timeouts, execution,
// diagnostics). It also owns the two ends of the trip that every caller
// shares: how a failure becomes a result (Failure) and how a result becomes
// an MCP tool result (Render). The package knows nothing about any
// particular stage; stages/order.go decides which ones run and in what order.
package pipeline
