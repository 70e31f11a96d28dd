// Command docgen writes the parts of the docs that the code knows: the
// tool tables, the settings, the diagnostics kinds, lockdown's reasons
// and declared actions, the trust boundary, what is paced, and the stage
// order. Each
// sits in a Markdown file between two markers,
//
//	<!-- BEGIN GENERATED: name -->
//	<!-- END GENERATED: name -->
//
// which any page may carry; docgen rewrites what lies between them, in
// the page's language (Simplified Chinese under docs/zh-CN/ and in
// README.zh-CN.md, English elsewhere), and leaves the rest alone. So a
// fact is written once, in the code, and a page that states it cannot
// fall behind: TestTheDocsAreGenerated fails when a committed page is not
// what docgen writes, and `go generate ./cmd/docgen` (run by make build)
// brings it up to date.
//
// Usage: docgen [-root DIR] [-check]. -check writes nothing and exits 1,
// naming each stale page, when any page differs.
package main

//go:generate go run . -root ../..

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	root := flag.String("root", ".", "the module's root directory")
	check := flag.Bool("check", false, "report stale pages instead of writing them")
	flag.Parse()
	pages, err := Generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(2)
	}
	stale := 0
	for _, p := range pages {
		if !p.Changed() {
			continue
		}
		stale++
		if *check {
			fmt.Fprintf(os.Stderr, "docgen: %s is not what the code generates\n", p.Path)
			continue
		}
		if err := os.WriteFile(p.Path, []byte(p.Want), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "docgen:", err)
			os.Exit(2)
		}
	}
	if *check && stale > 0 {
		os.Exit(1)
	}
}
