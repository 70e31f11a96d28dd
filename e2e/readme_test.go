package e2e

// The README's checkable claims (issue 23 item 1, issue 29 item 2): its
// configuration table names exactly the variables the server reads, its
// tool table exactly the tools the real binary lists, each in the modes the
// table says, and its diagnostics table every kind the server can emit. A
// variable, tool or kind added to the code without a README row fails here,
// and so does a row for something that no longer exists. The Chinese README
// is held to the same checks, and to the English one's tables: every table
// of the user part whose first column is code names the same things in the
// same order, so a translation cannot drift from the tables it translates.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/kinds"
)

// A readme is one of the two READMEs, with the headings of the sections
// the tests read in its language.
type readme struct {
	file string
	// link is the other README, linked before the first section.
	link string
	// install and hosts hold the host snippets; configuration, tools and
	// diagnostics the tables named for them.
	install, hosts, configuration, tools, diagnostics string
	// contributors is the first heading after the user part.
	contributors string
	// all is the tool table's word for "every mode".
	all string
}

var readmes = []readme{{
	file: "README.md", link: "README.zh-CN.md",
	install: "## Install", hosts: "## Configure your MCP host",
	configuration: "## Configuration", tools: "## Tools", diagnostics: "## Diagnostics",
	contributors: "## For contributors", all: "all",
}, {
	file: "README.zh-CN.md", link: "README.md",
	install: "## 安装", hosts: "## 配置 MCP 宿主",
	configuration: "## 配置项", tools: "## 工具", diagnostics: "## 诊断信息",
	contributors: "## 参与开发", all: "全部",
}}

// readmeLines returns the lines of one README.
func readmeLines(t *testing.T, file string) []string {
	t.Helper()
	root, err := moduleRoot()
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(root, file))
	require.NoError(t, err)
	return strings.Split(string(b), "\n")
}

// tableCells splits one table line into its trimmed cells. A cell may hold
// an escaped bar, as in a regular expression.
func tableCells(line string) []string {
	cells := strings.Split(strings.ReplaceAll(strings.Trim(line, "|"), `\|`, "\x00"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(strings.ReplaceAll(c, "\x00", "|"))
	}
	return cells
}

// readmeTable returns the rows (cells, trimmed) of the first table in the
// README section whose heading is heading, header and separator left out.
func readmeTable(t *testing.T, file, heading string) [][]string {
	t.Helper()
	lines := readmeLines(t, file)
	start := slices.Index(lines, heading)
	require.NotEqual(t, -1, start, "%s has no heading %q", file, heading)
	var rows [][]string
	for _, line := range lines[start+1:] {
		if strings.HasPrefix(line, "#") {
			break
		}
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		rows = append(rows, tableCells(line))
	}
	require.GreaterOrEqual(t, len(rows), 3, "%s: the section %q has no table with rows", file, heading)
	return rows[2:]
}

// codeTables returns, in order, the first column of every table in the
// user part of a README (before its contributors heading, outside code
// blocks) whose first cells are each one code span.
func codeTables(t *testing.T, r readme) [][]string {
	t.Helper()
	lines := readmeLines(t, r.file)
	end := slices.Index(lines, r.contributors)
	require.NotEqual(t, -1, end, "%s has no heading %q", r.file, r.contributors)
	var tables [][]string
	var rows [][]string
	flush := func() {
		if len(rows) > 2 {
			var names []string
			for _, row := range rows[2:] {
				m := codeSpan.FindStringSubmatch(row[0])
				if m == nil {
					names = nil
					break
				}
				names = append(names, m[1])
			}
			if names != nil {
				tables = append(tables, names)
			}
		}
		rows = nil
	}
	fenced := false
	for _, line := range lines[:end] {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "|") {
			rows = append(rows, tableCells(line))
			continue
		}
		flush()
	}
	flush()
	return tables
}

var codeSpan = regexp.MustCompile("^`([^`]+)`$")

// firstColumn returns each row's first cell, which must be one code span.
func firstColumn(t *testing.T, rows [][]string) []string {
	t.Helper()
	var names []string
	for _, r := range rows {
		m := codeSpan.FindStringSubmatch(r[0])
		require.NotNil(t, m, "a first cell is one name in backticks: %q", r[0])
		names = append(names, m[1])
	}
	return names
}

// serverVariables is every variable the server reads: config's list, the
// same one that decides which SNOWLUMA_MCP_ variables draw an
// unknown-variable warning.
func serverVariables(t *testing.T) map[string]bool {
	t.Helper()
	read := map[string]bool{}
	for _, name := range config.Variables() {
		read[name] = true
	}
	require.NotEmpty(t, read)
	return read
}

func TestReadmeConfigurationTableIsWhatTheServerReads(t *testing.T) {
	t.Parallel()
	read := serverVariables(t)
	var code []string
	for name := range read {
		code = append(code, name)
	}
	for _, r := range readmes {
		t.Run(r.file, func(t *testing.T) {
			rows := readmeTable(t, r.file, r.configuration)
			documented := firstColumn(t, rows)
			assert.ElementsMatch(t, code, documented, "every variable the server reads has a row, and every row is read")
			for _, row := range rows {
				require.Len(t, row, 4, "%s: variable, meaning, accepted values, when absent", row[0])
				assert.NotEmpty(t, row[2], "%s says what it accepts", row[0])
				assert.NotEmpty(t, row[3], "%s says what happens without it", row[0])
				if row[0] == "`SNOWLUMA_MCP_MODE`" {
					for _, mode := range []string{"docs", "read", "write"} {
						assert.Contains(t, row[2], "`"+mode+"`", "the mode is spelled as the server reads it")
					}
				}
			}
		})
	}
}

// readmeModes reads a tool table's modes cell: the word for every mode, or
// the modes named before any condition in parentheses (either width).
func readmeModes(cell, all string) []string {
	if strings.HasPrefix(cell, all) {
		return []string{"docs", "read", "write"}
	}
	head, _, _ := strings.Cut(cell, "(")
	head, _, _ = strings.Cut(head, "（")
	var modes []string
	for _, m := range []string{"docs", "read", "write"} {
		if strings.Contains(head, m) {
			modes = append(modes, m)
		}
	}
	return modes
}

func TestReadmeToolTableIsWhatTheServerLists(t *testing.T) {
	t.Parallel()
	// Every optional feature on, and a request declaring the tasks
	// extension, so that each mode lists all it can. Listing connects
	// nothing, so the events URL needs no server.
	env := with(writeEnv(), "SNOWLUMA_MCP_EVENTS_URL", "ws://127.0.0.1:9/", "SNOWLUMA_MCP_TASK_DIR", filepath.Join(t.TempDir(), "tasks"))
	listed := map[string][]string{}
	for _, mode := range []string{"docs", "read", "write"} {
		r := rawSession(t, modern, with(env, "SNOWLUMA_MCP_MODE", mode))
		for _, name := range toolNames(t, r.request("tools/list", map[string]any{"_meta": tasksMeta()})) {
			listed[name] = append(listed[name], mode)
		}
	}
	for _, r := range readmes {
		t.Run(r.file, func(t *testing.T) {
			rows := readmeTable(t, r.file, r.tools)
			documented := map[string][]string{}
			for i, name := range firstColumn(t, rows) {
				require.Len(t, rows[i], 4, "%s: tool, modes, arguments, what it does", name)
				assert.NotEmpty(t, rows[i][2], "%s lists its arguments (or none)", name)
				documented[name] = readmeModes(rows[i][1], r.all)
			}
			assert.Equal(t, listed, documented, "every tool the server lists has a row with the modes it is listed in, and no row names another")
		})
	}
}

func TestReadmeNamesEveryDiagnosticsKind(t *testing.T) {
	t.Parallel()
	for _, r := range readmes {
		t.Run(r.file, func(t *testing.T) {
			rows := readmeTable(t, r.file, r.diagnostics)
			assert.ElementsMatch(t, kinds.All(), firstColumn(t, rows), "every kind the server can emit has a row, and every row is a kind")
			for _, row := range rows {
				require.Len(t, row, 4, "%s: kind, outcome, what happened, next step", row[0])
				assert.Regexp(t, `^(failed|unknown|success)\b`, row[1], "%s names its outcome", row[0])
				assert.NotEmpty(t, row[3], "%s says what to do next", row[0])
			}
		})
	}
}

// TestReadmeTranslationKeepsTheTables holds the Chinese README to the
// English one table by table: the configuration, tool and diagnostics
// tables, the connection check's kinds, the event read's fields, and any
// table added later whose first column is code.
func TestReadmeTranslationKeepsTheTables(t *testing.T) {
	t.Parallel()
	english, chinese := codeTables(t, readmes[0]), codeTables(t, readmes[1])
	require.GreaterOrEqual(t, len(english), 5, "the parser finds the English README's tables")
	assert.Equal(t, english, chinese, "the same tables, in the same order, naming the same things in the same order")
}

// TestReadmeTranslationKeepsTheSnippets: the Chinese README's user part
// shows every code block of the English one's, byte for byte and in the
// same order (a block the English repeats is counted once), and no other.
func TestReadmeTranslationKeepsTheSnippets(t *testing.T) {
	t.Parallel()
	snippets := func(r readme) []string {
		end := slices.Index(readmeLines(t, r.file), r.contributors)
		require.NotEqual(t, -1, end, "%s has no heading %q", r.file, r.contributors)
		var out []string
		for _, f := range readmeFences(t, r.file) {
			if s := f.lang + "\n" + f.text; f.line < end && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	english, chinese := snippets(readmes[0]), snippets(readmes[1])
	require.GreaterOrEqual(t, len(english), 15, "the parser finds the English README's code blocks")
	assert.Equal(t, english, chinese, "the same code blocks, in the same order")
}

// TestReadmesLinkEachOther: each README names the other before its first
// section, where a reader looks for their language.
func TestReadmesLinkEachOther(t *testing.T) {
	t.Parallel()
	for _, r := range readmes {
		t.Run(r.file, func(t *testing.T) {
			lines := readmeLines(t, r.file)
			end := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "## ") })
			require.NotEqual(t, -1, end, "%s has sections", r.file)
			assert.Contains(t, strings.Join(lines[:end], "\n"), "]("+r.link+")", "%s links %s at the top", r.file, r.link)
		})
	}
}

// TestReadmeBuildCommandsAreWhatTheyClaim: the README says the binary
// needs Go only (go install ./cmd/snowluma-mcp, make bin) and that make
// build also installs the tests' npm packages; the Makefile is held to it.
func TestReadmeBuildCommandsAreWhatTheyClaim(t *testing.T) {
	t.Parallel()
	root, err := moduleRoot()
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	for _, claim := range []string{"`go install ./cmd/snowluma-mcp`", "`make bin` in `bin/snowluma-mcp`", "`make build` does the latter and also\ninstalls the npm packages the tests use"} {
		assert.Contains(t, string(b), claim)
	}
	recipe := func(target string) string {
		cmd := exec.Command("make", "-n", target)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "make -n %s: %s", target, out)
		return string(out)
	}
	bin := recipe("bin")
	assert.Contains(t, bin, "build -trimpath -o bin/snowluma-mcp ./cmd/snowluma-mcp")
	assert.NotContains(t, bin, "npm")
	assert.NotContains(t, bin, "node")
	build := recipe("build")
	assert.Contains(t, build, "build -trimpath -o bin/snowluma-mcp ./cmd/snowluma-mcp")
	assert.Contains(t, build, "cd e2e/clients && npm ci")
	assert.Contains(t, build, "cd uiasset && npm ci")
}

// TestReadmeSaysWhyOfEveryDependency: every module go.mod requires
// directly is named in the README's "Dependencies, and why" (a module
// path named there also covers the modules under it, as otel covers
// otel/trace), and nothing is named there that go.mod no longer requires.
func TestReadmeSaysWhyOfEveryDependency(t *testing.T) {
	t.Parallel()
	root, err := moduleRoot()
	require.NoError(t, err)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	var direct, all []string
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.Contains(f[0], ".") && strings.HasPrefix(f[1], "v") {
			all = append(all, f[0])
			if !strings.Contains(line, "// indirect") {
				direct = append(direct, f[0])
			}
		}
	}
	require.Contains(t, direct, "github.com/modelcontextprotocol/go-sdk", "go.mod was read")

	text := strings.Join(readmeLines(t, "README.md"), "\n")
	_, deps, ok := strings.Cut(text, "\n## Dependencies, and why\n")
	require.True(t, ok, "the README has a section \"Dependencies, and why\"")
	deps, _, _ = strings.Cut(deps, "\n## ")
	var named []string
	for _, m := range regexp.MustCompile("(?m)^- `([^`]+)`").FindAllStringSubmatch(deps, -1) {
		named = append(named, m[1])
	}
	for _, d := range direct {
		assert.True(t, slices.ContainsFunc(named, func(n string) bool { return d == n || strings.HasPrefix(d, n+"/") }),
			"go.mod requires %s, which the README's dependencies do not name", d)
	}
	for _, n := range named {
		if strings.Contains(n, ".") && strings.Contains(n, "/") { // a module path, not npm
			assert.True(t, slices.ContainsFunc(all, func(d string) bool { return d == n || strings.HasPrefix(d, n+"/") }),
				"the README names %s, which go.mod does not require", n)
		}
	}
}
