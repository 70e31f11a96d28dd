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

An MCP server over stdio for SnowLuma. An MCP host starts it and speaks to it
on stdin and stdout; it is configured through SNOWLUMA_MCP_* environment
variables (SNOWLUMA_MCP_ENDPOINT, SNOWLUMA_MCP_TOKEN, SNOWLUMA_MCP_MODE, ...),
which the README lists. Without any it serves SnowLuma's action catalog.
`

// commandLine handles the arguments, before anything else starts. done
// says the process should exit with code instead of serving: after
// --version or --help, or at an argument it does not know (rather than
// ignoring it and serving something other than what was asked).
func commandLine(args []string, stdout, stderr io.Writer) (code int, done bool) {
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
