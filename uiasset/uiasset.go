package uiasset

import (
	"embed"
	"errors"
	"io/fs"
)

// URI names the panel as a resource; tools link to it from
// _meta.ui.resourceUri.
const URI = "ui://snowluma-mcp/message-preview.html"

// MIMEType is the MCP Apps profile hosts look for.
const MIMEType = "text/html;profile=mcp-app"

// builtFile is where vite writes the panel (see vite.config.mjs).
const builtFile = "dist/index.html"

//go:embed all:dist
var dist embed.FS

// ErrNotBuilt says the binary was compiled without running the panel build.
var ErrNotBuilt = errors.New("the message preview panel (uiasset/dist/index.html) is missing or empty: run `make build`, which builds it before the binary")

// HTML returns the built panel, or ErrNotBuilt when the binary was compiled
// without it.
func HTML() ([]byte, error) { return read(dist) }

func read(fsys fs.FS) ([]byte, error) {
	b, err := fs.ReadFile(fsys, builtFile)
	if err != nil || len(b) == 0 {
		return nil, ErrNotBuilt
	}
	return b, nil
}
