// Package e2e holds snowluma-mcp's end-to-end tests. They build the real
// binary once, start it over stdio exactly as an MCP client would (through
// the official Go SDK client, and through a raw JSON-RPC driver for the
// wire details the SDK hides), and point it at an in-process fake SnowLuma
// (package fake) on 127.0.0.1. Every feature is exercised on both protocol
// generations: 2026-07-28 (no initialize) and 2025-11-25 (legacy
// initialize). Nothing here reaches any address but 127.0.0.1.
//
// The package has no non-test code besides this comment; the tests live in
// the _test.go files, one concern per file.
package e2e
