// Package pipeline defines the trip every tool call takes: a Call that carries
// the per-call state, a Handler that does a tool's one job, and Stages that wrap
// handlers with the cross-cutting concerns (tracing, gating, validation,
// timeouts, execution, diagnostics). The package knows nothing about any
// particular stage; stages/order.go decides which ones run and in what order.
package pipeline
