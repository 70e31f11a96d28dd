package uiasset

import (
	"compress/gzip"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxPanelBytes is the size budget for the built panel.
const maxPanelBytes = 300 * 1024

func builtPanel(t *testing.T) string {
	t.Helper()
	html, err := HTML()
	require.NoError(t, err, "the committed panel is missing: git checkout -- uiasset/dist/index.html")
	return html
}

func TestMissingOrEmptyBuildIsAnError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fsys fstest.MapFS
	}{
		{"a directory without the built file", fstest.MapFS{"dist/.gitkeep": {}}},
		{"an empty built file", fstest.MapFS{"dist/index.html": {Data: []byte{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := read(tt.fsys)
			require.ErrorIs(t, err, ErrNotBuilt)
			assert.Contains(t, err.Error(), "make panel", "the message says how to fix it")
		})
	}
}

// TestBuiltPanelIsSelfContained reads the markup of the built file: one
// inline script, inline styles, and nothing that names another resource.
// The harness checks the same at run time (zero requests).
func TestBuiltPanelIsSelfContained(t *testing.T) {
	t.Parallel()
	html := builtPanel(t)
	assert.Less(t, len(html), maxPanelBytes, "the panel must stay under 300 KB")
	lower := strings.ToLower(html)

	scripts := regexp.MustCompile(`<script\b[^>]*>`).FindAllString(lower, -1)
	require.Len(t, scripts, 1, "one inline module script")
	assert.NotContains(t, scripts[0], "src=")

	for _, tag := range []string{"<link", "<img", "<iframe", "<object", "<embed", "<video", "<audio", "<source", "<base", "<form"} {
		assert.NotContains(t, lower, tag, "the panel has no %s element", tag)
	}
	for _, m := range regexp.MustCompile(`(?s)<style\b[^>]*>(.*?)</style>`).FindAllStringSubmatch(lower, -1) {
		for _, ref := range []string{"url(", "@import", "@font-face"} {
			assert.NotContains(t, m[1], ref, "styles reference nothing outside the file")
		}
	}
	assert.Contains(t, html, `content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"`,
		"a CSP forbids any load or connection, whatever the text shown")

	// The only URLs left are identifiers inside the bundled SDK's schema
	// validators, compared as strings and never fetched (the CSP above
	// would refuse it anyway).
	identifiers := map[string]bool{
		"http://json-schema.org/draft-04/schema": true, "http://json-schema.org/draft-07/schema": true,
		"http://json-schema.org/draft/2019-09/schema": true, "https://json-schema.org/draft/2019-09/schema": true,
		"https://json-schema.org/draft/2020-12/schema": true, "https://github.com/cfworker": true,
	}
	for _, u := range regexp.MustCompile(`https?://[A-Za-z0-9./_-]+`).FindAllString(html, -1) {
		assert.True(t, identifiers[u], "unexpected URL in the panel: %s", u)
	}
}

func TestPanelSize(t *testing.T) {
	t.Parallel()
	html := builtPanel(t)
	n := gzipSize(t, html)
	t.Logf("panel: %d bytes raw, %d bytes gzip", len(html), n)
	assert.Positive(t, n)
}

func gzipSize(t *testing.T, s string) int {
	t.Helper()
	cw := &countWriter{}
	zw, err := gzip.NewWriterLevel(cw, gzip.BestCompression)
	require.NoError(t, err)
	_, err = io.WriteString(zw, s)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return cw.n
}

type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }
