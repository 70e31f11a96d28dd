// Package uiasset holds the message preview panel: an MCP App built from
// the source beside this file (index.html, src/) with the official Apps
// client into one self-contained HTML file, dist/index.html, which is
// embedded here. The built file is not committed: `make build` produces it
// (npm ci, then vite build), so it can never be stale against its source.
// go:embed needs the directory at compile time, hence the committed
// dist/.gitkeep; HTML reports a missing or empty build as an error, which
// the binary turns into a packaging error at start rather than serving a
// blank panel.
package uiasset
