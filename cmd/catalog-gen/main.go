// Command catalog-gen turns the authored catalog sources into the embedded
// catalog file. It runs from `go generate ./catalog`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/snowluma/snowluma-mcp/catalog"
)

func main() {
	src := flag.String("src", "actions", "directory of authored action sources")
	out := flag.String("out", "catalog.gen.json", "generated catalog file")
	flag.Parse()
	data, err := catalog.Build(os.DirFS(*src))
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalog-gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "catalog-gen:", err)
		os.Exit(1)
	}
}
