package e2e

// The README's checkable claims (issue 23 item 1): its configuration table
// names exactly the variables the server reads, its tool table exactly the
// tools the real binary lists, each in the modes the table says, and its
// diagnostics table every kind the server can emit. A variable, tool or
// kind added to the code without a README row fails here, and so does a
// row for something that no longer exists.

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

// readmeTable returns the rows (cells, trimmed) of the first table in the
// README section whose heading is heading, header and separator left out.
func readmeTable(t *testing.T, heading string) [][]string {
	t.Helper()
	root, err := moduleRoot()
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	start := slices.Index(lines, heading)
	require.NotEqual(t, -1, start, "the README has no heading %q", heading)
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
		// A cell may hold an escaped bar, as in a regular expression.
		cells := strings.Split(strings.ReplaceAll(strings.Trim(line, "|"), `\|`, "\x00"), "|")
		for i, c := range cells {
			cells[i] = strings.TrimSpace(strings.ReplaceAll(c, "\x00", "|"))
		}
		rows = append(rows, cells)
	}
	require.GreaterOrEqual(t, len(rows), 3, "the section %q has no table with rows", heading)
	return rows[2:]
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

// serverVariables is every variable the server reads.
func serverVariables(t *testing.T) map[string]bool {
	t.Helper()
	read := map[string]bool{}
	_, _, err := config.Load(func(name string) string {
		read[name] = true
		return ""
	})
	require.NoError(t, err)
	return read
}

func TestReadmeConfigurationTableIsWhatTheServerReads(t *testing.T) {
	t.Parallel()
	read := serverVariables(t)
	var code []string
	for name := range read {
		code = append(code, name)
	}
	rows := readmeTable(t, "## Configuration")
	documented := firstColumn(t, rows)
	assert.ElementsMatch(t, code, documented, "every variable the server reads has a row, and every row is read")
	for _, r := range rows {
		require.Len(t, r, 4, "%s: variable, meaning, accepted values, when absent", r[0])
		assert.NotEmpty(t, r[2], "%s says what it accepts", r[0])
		assert.NotEmpty(t, r[3], "%s says what happens without it", r[0])
	}
}

// readmeModes reads a tool table's modes cell: "all", or the modes named
// before any condition in parentheses.
func readmeModes(cell string) []string {
	if strings.HasPrefix(cell, "all") {
		return []string{"docs", "read", "write"}
	}
	head, _, _ := strings.Cut(cell, "(")
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
	rows := readmeTable(t, "## Tools")
	documented := map[string][]string{}
	for i, name := range firstColumn(t, rows) {
		require.Len(t, rows[i], 4, "%s: tool, modes, arguments, what it does", name)
		assert.NotEmpty(t, rows[i][2], "%s lists its arguments (or none)", name)
		documented[name] = readmeModes(rows[i][1])
	}
	assert.Equal(t, listed, documented, "every tool the server lists has a row with the modes it is listed in, and no row names another")
}

func TestReadmeNamesEveryDiagnosticsKind(t *testing.T) {
	t.Parallel()
	rows := readmeTable(t, "## Diagnostics")
	assert.ElementsMatch(t, kinds.All(), firstColumn(t, rows), "every kind the server can emit has a row, and every row is a kind")
	for _, r := range rows {
		require.Len(t, r, 4, "%s: kind, outcome, what happened, next step", r[0])
		assert.Regexp(t, `^(failed|unknown|success)\b`, r[1], "%s names its outcome", r[0])
		assert.NotEmpty(t, r[3], "%s says what to do next", r[0])
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
