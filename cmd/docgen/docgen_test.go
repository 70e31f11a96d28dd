package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// TestTheDocsAreGenerated: every committed page is what docgen writes
// from the code, so a tool, setting, kind, shape or stage changed without
// `go generate ./cmd/docgen` fails here, naming the page.
func TestTheDocsAreGenerated(t *testing.T) {
	t.Parallel()
	pages, err := Generate(filepath.Join("..", ".."))
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, p := range pages {
		assert.Equal(t, p.Want, p.Have, "%s is not what the code generates: run go generate ./cmd/docgen", p.Path)
		for _, n := range p.Generated {
			seen[n] = true
		}
	}
	// Every text docgen knows is shown somewhere: a marker lost from the
	// docs would leave its facts unwritten.
	for _, n := range []string{"tools", "tools-by-mode", "variables", "bundle-settings", "kinds", "lockdown-reasons", "third-party-actions", "trust-boundary", "pacing-deliveries", "pacing-unpaced", "stages", "admission", "hosts"} {
		assert.True(t, seen[n], "no page carries the generated %q", n)
	}
}

func TestFill(t *testing.T) {
	t.Parallel()
	render := func(name string) (string, error) {
		if name == "x" || name == "y" {
			return name + " text\n", nil
		}
		return "", errors.New("unknown " + name)
	}
	for _, tt := range []struct {
		name, in, want, err string
	}{
		{"replaces what lies between the markers",
			"a\n<!-- BEGIN GENERATED: x -->\nold\nlines\n<!-- END GENERATED: x -->\nb\n",
			"a\n<!-- BEGIN GENERATED: x -->\nx text\n<!-- END GENERATED: x -->\nb\n", ""},
		{"fills an empty pair and several pairs",
			"<!-- BEGIN GENERATED: x -->\n<!-- END GENERATED: x -->\n-\n<!-- BEGIN GENERATED: y -->\nz\n<!-- END GENERATED: y -->\n",
			"<!-- BEGIN GENERATED: x -->\nx text\n<!-- END GENERATED: x -->\n-\n<!-- BEGIN GENERATED: y -->\ny text\n<!-- END GENERATED: y -->\n", ""},
		{"leaves a page without markers alone", "just text\n", "just text\n", ""},
		{"ignores a marker inside a line", "say `<!-- BEGIN GENERATED: x -->` here\n", "say `<!-- BEGIN GENERATED: x -->` here\n", ""},
		{"refuses an unclosed marker", "<!-- BEGIN GENERATED: x -->\n", "", "line 1: BEGIN GENERATED: x without its END"},
		{"refuses an END first", "<!-- END GENERATED: x -->\n", "", "line 1: END GENERATED: x without its BEGIN"},
		{"refuses a pair closed by another name", "<!-- BEGIN GENERATED: x -->\n<!-- END GENERATED: y -->\n", "", "line 1: BEGIN GENERATED: x is not closed by its own END"},
		{"refuses a nested pair", "<!-- BEGIN GENERATED: x -->\n<!-- BEGIN GENERATED: y -->\n<!-- END GENERATED: y -->\n<!-- END GENERATED: x -->\n", "", "line 1: BEGIN GENERATED: x is not closed by its own END"},
		{"refuses a name nothing renders", "\n<!-- BEGIN GENERATED: nope -->\n<!-- END GENERATED: nope -->\n", "", "line 2: unknown nope"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Fill(tt.in, render)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestEveryBlockRendersInBothLanguages(t *testing.T) {
	t.Parallel()
	b, err := newBlocks(filepath.Join("..", ".."))
	require.NoError(t, err)
	for _, name := range []string{"tools", "tools-by-mode", "variables", "bundle-settings", "kinds", "lockdown-reasons", "third-party-actions"} {
		en, err := b.render(name, English)
		require.NoError(t, err)
		zh, err := b.render(name, Chinese)
		require.NoError(t, err)
		assert.NotEqual(t, en, zh, "%s: the Chinese table has Chinese headings", name)
		assert.Equal(t, strings.Count(en, "\n"), strings.Count(zh, "\n"), "%s: the same rows in both", name)
	}
	_, err = b.render("nope", English)
	assert.EqualError(t, err, `no generated text is named "nope"`)
}

func TestTheLanguageIsTheDirectorys(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]Lang{
		"README.md": English, "README.zh-CN.md": Chinese, "CONTRIBUTING.md": English,
		"docs/tools.md": English, "docs/hosts/codex.md": English,
		"docs/zh-CN/tools.md": Chinese, "docs/zh-CN/hosts/codex.md": Chinese,
	} {
		assert.Equal(t, want, langOf(filepath.FromSlash(path)), path)
	}
}

// TestANewCodesRowReachesTheDocs: the diagnostics tables are written from
// the kinds' rows alone, so a code added as one row is in both languages'
// tables with its words.
func TestANewCodesRowReachesTheDocs(t *testing.T) {
	t.Parallel()
	kinds := append(fault.Kinds(), fault.Described{Kind: "brand_new",
		Outcome: lang.Text{EN: "failed", ZH: "failed"}, Happened: lang.Text{EN: "something new", ZH: "新情况"},
		Fix: lang.Text{EN: "fix it", ZH: "改正"}})
	assert.Contains(t, kindTable(English, kinds), "| `brand_new` | failed | something new | fix it |")
	assert.Contains(t, kindTable(Chinese, kinds), "| `brand_new` | failed | 新情况 | 改正 |")
}
