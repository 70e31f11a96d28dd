package main

import (
	"fmt"
	"io"
	"os"
)

// terminalHint is the line a person who starts the server by hand gets:
// with stdin a terminal, nothing else would tell them that the silent
// process is waiting for an MCP host to speak JSON-RPC on it.
const terminalHint = "snowluma-mcp: this is an MCP server: it waits for an MCP host on stdin and answers on stdout. " +
	"Run `snowluma-mcp --help` for how to set it up, or `snowluma-mcp check` to test its settings and SnowLuma. Ctrl-C ends it."

// hintAtTerminal writes terminalHint to stderr when stdin is a terminal.
func hintAtTerminal(stdin *os.File, stderr io.Writer) {
	if isTerminal(stdin) {
		fmt.Fprintln(stderr, terminalHint)
	}
}
