package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/snowluma/snowluma-mcp/internal/version"
)

// usage is what --help prints: the server has no options of its own, since
// MCP hosts configure servers through the environment.
const usage = `usage: snowluma-mcp [--version]
       snowluma-mcp check [--json]

An MCP server over stdio for SnowLuma. An MCP host starts it and speaks to it
on stdin and stdout; it is configured through SNOWLUMA_MCP_* environment
variables (SNOWLUMA_MCP_ENDPOINT, SNOWLUMA_MCP_TOKEN, SNOWLUMA_MCP_MODE, ...),
which docs/configuration.md lists. Without any it serves SnowLuma's action catalog.

snowluma-mcp check, run in a terminal with the environment the host gives the
server, tries everything the configured mode needs (the endpoint, the token,
the account, SnowLuma's version, the events URL, the directories) and prints
one line per item with what to change. It changes nothing and never prints
the token. It exits 0 when the server would run as configured; 2 when a
malformed mode, endpoint, token, limit or trusted-users list would leave it
serving only the documentation tools; 1 when it would run with less than
you set otherwise (a service a setting turns off, such as a relative
download folder, or anything it tries that fails). --json prints the report
as JSON.
`

// commandLine handles the arguments, before anything else starts. done
// says the process should exit with code instead of serving: after
// --version or --help, or at an argument it does not know (rather than
// ignoring it and serving something other than what was asked).
func commandLine(args []string, stdout, stderr io.Writer, check func(asJSON bool) int) (code int, done bool) {
	if len(args) > 0 && args[0] == "check" {
		return checkLine(args[1:], stdout, stderr, check), true
	}
	fs := flag.NewFlagSet("snowluma-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	showVersion := fs.Bool("version", false, "print the version and exit")
	err := fs.Parse(args)
	switch {
	case err == flag.ErrHelp:
		fmt.Fprint(stdout, usage)
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "snowluma-mcp: %v\n%s", err, usage)
		return 2, true
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "snowluma-mcp: unexpected argument %q: settings come from the environment\n%s", fs.Arg(0), usage)
		return 2, true
	case *showVersion:
		fmt.Fprintln(stdout, "snowluma-mcp", version.String())
		return 0, true
	}
	return 0, false
}

// checkLine handles the arguments of `snowluma-mcp check`.
func checkLine(args []string, stdout, stderr io.Writer, check func(asJSON bool) int) int {
	fs := flag.NewFlagSet("snowluma-mcp check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	err := fs.Parse(args)
	switch {
	case err == flag.ErrHelp:
		fmt.Fprint(stdout, usage)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "snowluma-mcp check: %v\n%s", err, usage)
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "snowluma-mcp check: unexpected argument %q: settings come from the environment\n%s", fs.Arg(0), usage)
		return 2
	}
	return check(*asJSON)
}
