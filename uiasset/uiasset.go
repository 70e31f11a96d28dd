package uiasset

import (
	"embed"
	"errors"
	"io"
	"io/fs"
	"strings"
)

// URI names the panel as a resource; tools link to it from
// _meta.ui.resourceUri.
const URI = "ui://snowluma-mcp/message-preview.html"

// MIMEType is the MCP Apps profile hosts look for.
const MIMEType = "text/html;profile=mcp-app"

// builtFile is where vite writes the panel (see vite.config.mjs).
const builtFile = "dist/index.html"

// The built panel is committed, so go build and go install embed it with no
// npm step; a checkout without it does not compile.
//
//go:embed dist/index.html
var dist embed.FS

// ErrNotBuilt says the binary was compiled with an empty panel, a broken
// checkout of the committed build.
var ErrNotBuilt = errors.New("the message preview panel (uiasset/dist/index.html) is missing or empty: restore the committed file (git checkout -- uiasset/dist/index.html) or rebuild it with `make panel`")

// HTML returns the built panel, or ErrNotBuilt when the binary was compiled
// without it.
// It is read once at start as a string (the form a resource read serves),
// with a single copy out of the binary.
func HTML() (string, error) { return read(dist) }

func read(fsys fs.FS) (string, error) {
	f, err := fsys.Open(builtFile)
	if err != nil {
		return "", ErrNotBuilt
	}
	defer f.Close()
	var b strings.Builder
	if info, err := f.Stat(); err == nil {
		b.Grow(int(info.Size()))
	}
	if _, err := io.Copy(&b, f); err != nil || b.Len() == 0 {
		return "", ErrNotBuilt
	}
	return b.String(), nil
}
