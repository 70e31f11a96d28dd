// Package hosts is the host suite (make test-hosts): it drives the real MCP
// hosts people use (Claude Code, Gemini CLI, Codex), installed pinned from
// npm, headless against a local stand-in for each host's model API that
// plays a fixed script of tool calls, and holds what each host hands back
// to the model at each step in golden files (testdata/<host>/), with what
// reached the fake SnowLuma. Its tests carry the build tag "hosts", so make
// test, which has no hosts installed, does not compile them; make
// test-hosts installs the hosts (install.sh) and runs them, offline, in a
// network namespace with only loopback.
package hosts
