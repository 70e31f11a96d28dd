package e2e

// The host guides agree with each other, with the README and with what was
// measured (issue 52): every snippet that configures the server starts in
// read mode and shows the events lines, and every guide names the host
// version docs/platforms.md measured, the one the server's own texts
// (check's note, the host keys the arguments stage drops) name too.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/checkup"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// guides are the host guides, English and Chinese.
func guides(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range userPages(t) {
		if strings.HasPrefix(p.en, "docs/hosts/") {
			out = append(out, p.en, p.zh)
		}
	}
	require.Len(t, out, 12, "six host guides, in two languages")
	return out
}

var modeSetting = regexp.MustCompile(`SNOWLUMA_MCP_MODE"?\s*[=:]\s*"?([A-Za-z]+)`)

func TestEveryGuideSnippetStartsInReadModeWithTheEventsLines(t *testing.T) {
	t.Parallel()
	for _, page := range guides(t) {
		snippets := 0
		for _, f := range fences(t, page) {
			if !strings.Contains(f.text, "SNOWLUMA_MCP_ENDPOINT") {
				continue // not a configuration of the server (add-json's docs mode, a path alone)
			}
			snippets++
			where := fmt.Sprintf("%s:%d (%s)", page, f.line, f.lang)
			assert.Contains(t, f.text, "SNOWLUMA_MCP_EVENTS_URL", "%s shows the events lines", where)
			assert.Contains(t, f.text, "SNOWLUMA_MCP_EVENTS_TOKEN", "%s shows the events lines", where)
			for _, m := range modeSetting.FindAllStringSubmatch(f.text, -1) {
				assert.Equal(t, "read", m[1], "%s starts in read mode, as the README says", where)
			}
		}
		if !strings.HasSuffix(page, "claude-desktop.md") { // its bundle needs no snippet, but it has one
			assert.NotZero(t, snippets, "%s has a snippet", page)
		}
	}
}

// measured reads docs/platforms.md's host table: host name to version.
func measured(t *testing.T, page string) map[string]string {
	t.Helper()
	row := regexp.MustCompile(`(?m)^\| (Claude Code|Gemini CLI|Codex) (\d+\.\d+\.\d+) \|`)
	out := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(readDoc(t, page), -1) {
		out[m[1]] = m[2]
	}
	require.Len(t, out, 3, "%s's host table names the three hosts", page)
	return out
}

func TestEveryPageNamesTheMeasuredHostVersion(t *testing.T) {
	t.Parallel()
	want := measured(t, "docs/platforms.md")
	assert.Equal(t, want, measured(t, "docs/zh-CN/platforms.md"))
	assert.Equal(t, fmt.Sprintf("Claude Code %s, Gemini CLI %s and Codex %s", want["Claude Code"], want["Gemini CLI"], want["Codex"]),
		checkup.MeasuredHosts, "check's note names the versions measured")
	for _, k := range pipeline.HostKeys {
		assert.Equal(t, want[k.Host], k.Version, "the host key %s names the version measured", k.Name)
	}
	tried := regexp.MustCompile(`(?:Tried with|用) (Claude Code|Gemini CLI|Codex) (\d+\.\d+\.\d+)`)
	for _, page := range guides(t) {
		for _, m := range tried.FindAllStringSubmatch(readDoc(t, page), -1) {
			assert.Equal(t, want[m[1]], m[2], "%s names the %s version docs/platforms.md measured", page, m[1])
		}
	}
}

// TestPlatformsListsEveryHostKey: the arguments stage drops exactly
// pipeline.HostKeys; docs/platforms.md lists each, with its host and
// version, in both languages.
func TestPlatformsListsEveryHostKey(t *testing.T) {
	t.Parallel()
	for _, page := range []string{"docs/platforms.md", "docs/zh-CN/platforms.md"} {
		text := readDoc(t, page)
		for _, k := range pipeline.HostKeys {
			assert.Contains(t, text, fmt.Sprintf("| `%s` | %s | %s |", k.Name, k.Host, k.Version), "%s lists the host key", page)
		}
		for _, fact := range []string{"codex/auth-change", "mcp_2026_07_28", "CODEX_MCP_PROTOCOL_VERSION", "gemini mcp list", "<untrusted_context>", "Wall time", "ToolSearch", "12 KB", "tool_output_token_limit"} {
			assert.Contains(t, text, fact, "%s says what the hosts do", page)
		}
	}
}

// TestTheCodexGuideSaysWhatCodexNeeds: codex exec refuses every call it
// would ask about, so the guide says which approval mode fits each mode,
// how long results are cut and what lets a model get whole answers, and
// what its Auth column means, in both languages.
func TestTheCodexGuideSaysWhatCodexNeeds(t *testing.T) {
	t.Parallel()
	for _, page := range []string{"docs/hosts/codex.md", "docs/zh-CN/hosts/codex.md"} {
		text := readDoc(t, page)
		for _, fact := range []string{"default_tools_approval_mode", "| `auto`", "| `prompt`", "| `writes`", "| `approve`",
			"`tool_output_token_limit = 20000`", "`limit`", "`offset`", "`Unsupported`", "codex mcp login"} {
			assert.Contains(t, text, fact, page)
		}
	}
}
