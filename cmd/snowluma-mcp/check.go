package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/checkup"
	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// runCheck runs `snowluma-mcp check` with getenv and environ and prints its report to
// stdout, in the terminal's language (lang.Terminal): 0 when everything the configured mode needs works, 2 for a
// setting that puts the server in its explaining state (as the server
// itself once exited), 1 otherwise: a malformed optional setting, which
// turns off only its service, is a 1, as usage says.
func runCheck(asJSON bool, stdout, stderr io.Writer, getenv func(string) string, environ []string) int {
	cat, err := catalog.Load()
	if err != nil {
		fmt.Fprintln(stderr, "snowluma-mcp: packaging error:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r := checkup.Run(ctx, checkup.Deps{Getenv: getenv, Environ: environ, CatalogVersion: cat.Version(), Lang: lang.Terminal(getenv)})
	if asJSON {
		if err := r.WriteJSON(stdout); err != nil {
			return 1
		}
	} else {
		r.Write(stdout)
	}
	switch {
	case r.OK:
		return 0
	case r.Malformed != "":
		return 2
	default:
		return 1
	}
}
