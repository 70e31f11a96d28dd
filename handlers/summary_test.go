package handlers

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// TestEveryToolSaysWhatItDoesToPeopleInBothLanguages: each tool, the event
// tools and the *_with_input twins included, declares its line for people
// in English and in Chinese, each one or more whole sentences; a tool
// without one could not be listed in the .mcpb bundle (cmd/release refuses
// it), and a twin's line says it asks.
func TestEveryToolSaysWhatItDoesToPeopleInBothLanguages(t *testing.T) {
	t.Parallel()
	d := deps(t, config.ModeWrite)
	d.Events = hub.New(hub.Options{})
	hasHan := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	}
	for _, tl := range All(d) {
		en, zh := tl.Summary.EN, tl.Summary.ZH
		assert.True(t, strings.HasSuffix(en, "."), "%s: the English line is whole sentences: %q", tl.Name, en)
		assert.False(t, hasHan(en), "%s: the English line is English: %q", tl.Name, en)
		assert.True(t, strings.HasSuffix(zh, "。"), "%s: the Chinese line is whole sentences: %q", tl.Name, zh)
		assert.True(t, hasHan(zh), "%s: the Chinese line is Chinese: %q", tl.Name, zh)
		if strings.HasSuffix(tl.Name, "_with_input") {
			assert.Contains(t, en, "Asks you", tl.Name)
			assert.Contains(t, zh, "问你", tl.Name)
		}
	}
}
