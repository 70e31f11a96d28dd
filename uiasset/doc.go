// Package uiasset holds the message preview panel: an MCP App built from
// the source beside this file (index.html, src/) with the official Apps
// client into one self-contained HTML file, dist/index.html, which is
// embedded here.
//
// The built file is committed, so that `go build` and `go install` give a
// complete binary with no npm step. It cannot go stale unnoticed:
// TestEmbeddedPanelIsAFreshBuildOfItsSource (in make test) rebuilds it with
// vite from the packages of the committed lockfile and requires the
// embedded file byte for byte. After editing the source, `make panel`
// rebuilds it; commit the result with the source. HTML still reports an
// empty file as an error, which the binary turns into a packaging error at
// start rather than serving a blank panel.
package uiasset
