package e2e

// What the user docs state that no generator can write (issue 35): the
// tables the code knows are written by cmd/docgen, and held fresh there.
// Held here instead: every host snippet, in any user page of either
// language, parses as its host reads it and sets only variables the
// server reads, and so does every command line that sets them; every
// relative link and anchor of the docs resolves; every user page has its
// translation, linked at the top, with the same code blocks; the build
// commands the README names do what it says; and every dependency go.mod
// requires is explained in CONTRIBUTING.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

// contributorPages are the pages under docs/ written for contributors and
// maintainers, in English only.
var contributorPages = []string{"docs/maintainers.md", "docs/performance.md", "docs/pipeline.md", "docs/sdk-workarounds.md", "docs/testing.md"}

// A userPage is one user page and its translation, both relative to the
// module root.
type userPage struct{ en, zh string }

// userPages are the READMEs and every user page under docs/, each with
// its Simplified Chinese twin.
func userPages(t *testing.T) []userPage {
	t.Helper()
	pages := []userPage{{"README.md", "README.zh-CN.md"}}
	for _, p := range docFiles(t) {
		if strings.HasPrefix(p, "docs/") && !strings.HasPrefix(p, "docs/zh-CN/") && !slices.Contains(contributorPages, p) {
			pages = append(pages, userPage{p, "docs/zh-CN/" + strings.TrimPrefix(p, "docs/")})
		}
	}
	require.GreaterOrEqual(t, len(pages), 19, "the user pages are found")
	return pages
}

// docFiles are every Markdown file of the docs: the READMEs,
// CONTRIBUTING and everything under docs/, relative to the module root.
func docFiles(t *testing.T) []string {
	t.Helper()
	root := root(t)
	files := []string{"README.md", "README.zh-CN.md", "CONTRIBUTING.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	require.NoError(t, err)
	return files
}

func root(t *testing.T) string {
	t.Helper()
	r, err := moduleRoot()
	require.NoError(t, err)
	return r
}

// readDoc returns one file's text.
func readDoc(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(t), filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}

// A fence is one fenced code block: the line it opens on, its language
// and its text, the fence's own indentation (in a list item) removed.
type fence struct {
	line       int
	lang, text string
}

// fences returns every fenced code block of one page, in order.
func fences(t *testing.T, rel string) []fence {
	t.Helper()
	var out []fence
	var open *fence
	indent := ""
	for i, line := range strings.Split(readDoc(t, rel), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case open != nil && trimmed == "```":
			out, open = append(out, *open), nil
		case open != nil:
			open.text += strings.TrimPrefix(line, indent) + "\n"
		case strings.HasPrefix(trimmed, "```"):
			indent = line[:len(line)-len(trimmed)]
			open = &fence{line: i + 1, lang: strings.TrimPrefix(trimmed, "```")}
		}
	}
	require.Nil(t, open, "%s: a code block is left open", rel)
	return out
}

// serverVariables are the names of every setting the server reads.
func serverVariables(t *testing.T) map[string]bool {
	t.Helper()
	read := map[string]bool{}
	for _, name := range config.Variables() {
		read[name] = true
	}
	require.NotEmpty(t, read)
	return read
}

// checkServer checks one server entry as a host reads it: a command, and
// only the keys hosts know; every env key a variable the server reads.
func checkServer(t *testing.T, where string, server map[string]any, read map[string]bool) {
	t.Helper()
	command, _ := server["command"].(string)
	assert.NotEmpty(t, command, "%s: a command", where)
	for key := range server {
		assert.Contains(t, []string{"command", "args", "env", "type", "default_tools_approval_mode"}, key, "%s: a key the hosts read", where)
	}
	if mode, ok := server["default_tools_approval_mode"]; ok {
		// Codex's per-server approval setting, the values it accepts.
		assert.Contains(t, []any{"auto", "prompt", "writes", "approve"}, mode, "%s: a value Codex accepts", where)
	}
	if args, ok := server["args"]; ok {
		list, ok := args.([]any)
		require.True(t, ok, "%s: args is a list", where)
		for _, a := range list {
			assert.IsType(t, "", a, "%s: every argument is a string", where)
		}
	}
	if env, ok := server["env"]; ok {
		vars, ok := env.(map[string]any)
		require.True(t, ok, "%s: env is an object", where)
		require.NotEmpty(t, vars, "%s: an env block sets something", where)
		for k, v := range vars {
			assert.True(t, read[k], "%s: %s is a variable the server reads", where, k)
			assert.IsType(t, "", v, "%s: %s is a string", where, k)
		}
	}
}

var (
	// envFlag is one -e or --env setting of a host's command line.
	envFlag = regexp.MustCompile(`(?:^|\s)(?:-e|--env)\s+"?([A-Za-z_][A-Za-z0-9_]*)=`)
	// addJSON is claude mcp add-json's JSON argument.
	addJSON = regexp.MustCompile(`claude mcp add-json .*'(\{.*\})'`)
	// setting is a variable of ours set in a shell: VAR=… before a POSIX
	// command, $env:VAR = … in PowerShell, set VAR=… in cmd.
	setting = regexp.MustCompile(`(?m)(?:^|\s|\$env:|\bset )(SNOWLUMA_MCP_[A-Za-z0-9_]*)\s*=`)
	// placeholder is what a reader replaces in a code block: <version>,
	// <SnowLuma 的授权 Token>.
	placeholder = regexp.MustCompile(`<[^<>\n]+>`)
	// continuation ends a line that goes on: \ in a POSIX shell, ` in
	// PowerShell, ^ in cmd.
	continuation = regexp.MustCompile("[ \t]+[\\\\`^]\n")
)

// TestDocsHostSnippetsSetOnlyVariablesTheServerReads: every mcpServers
// JSON snippet and Codex TOML table, in either language, has the shape
// its host reads; every host command line (claude, gemini, codex mcp add,
// in POSIX shell, PowerShell and cmd) sets only variables the server
// reads, with the command after -- where the host wants it; and so does
// every shell that sets a variable of ours.
func TestDocsHostSnippetsSetOnlyVariablesTheServerReads(t *testing.T) {
	t.Parallel()
	read := serverVariables(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			counts := map[string]int{}
			for _, p := range userPages(t) {
				page := p.en
				if lang == "zh" {
					page = p.zh
				}
				for _, f := range fences(t, page) {
					checkFence(t, fmt.Sprintf("%s:%d (%s)", page, f.line, f.lang), f, read, counts)
				}
			}
			// The snippets this test exists for are all there: a page
			// that lost one, or a parser that stopped finding them, fails.
			assert.GreaterOrEqual(t, counts["json"], 7, "the mcpServers snippets")
			assert.Equal(t, 2, counts["toml"], "Codex's config.toml snippet, and its Windows form")
			for _, host := range []string{"claude", "gemini", "codex"} {
				assert.Equal(t, 3, counts[host], "%s mcp add, in POSIX shell, PowerShell and cmd", host)
			}
			assert.Equal(t, 1, counts["add-json"], "claude mcp add-json")
			assert.GreaterOrEqual(t, counts["settings"], 4, "the shells that run snowluma-mcp check")
		})
	}
}

// checkFence checks one code block, counting what it found.
func checkFence(t *testing.T, where string, f fence, read map[string]bool, counts map[string]int) {
	t.Helper()
	switch f.lang {
	case "json":
		if !strings.Contains(f.text, `"mcpServers"`) {
			return
		}
		var doc map[string]any
		require.NoError(t, json.Unmarshal([]byte(f.text), &doc), "%s parses", where)
		servers, ok := doc["mcpServers"].(map[string]any)
		require.True(t, ok, "%s: the mcpServers shape", where)
		require.Len(t, doc, 1, "%s: nothing beside mcpServers", where)
		for name, s := range servers {
			server, ok := s.(map[string]any)
			require.True(t, ok, "%s: %s is an object", where, name)
			checkServer(t, where, server, read)
			counts["json"]++
		}
	case "toml":
		var doc map[string]any
		_, err := toml.Decode(f.text, &doc)
		require.NoError(t, err, "%s parses", where)
		servers, ok := doc["mcp_servers"].(map[string]any)
		require.True(t, ok, "%s: the [mcp_servers.NAME] shape", where)
		require.Len(t, doc, 1, "%s: nothing beside mcp_servers", where)
		for name, s := range servers {
			server, ok := s.(map[string]any)
			require.True(t, ok, "%s: %s is a table", where, name)
			checkServer(t, where+" "+name, server, read)
			counts["toml"]++
		}
	case "sh", "powershell", "bat":
		text := continuation.ReplaceAllString(f.text, " ")
		if m := setting.FindAllStringSubmatch(text, -1); m != nil {
			for _, s := range m {
				assert.True(t, read[s[1]], "%s: %s is a variable the server reads", where, s[1])
			}
			counts["settings"]++
		}
		for _, line := range strings.Split(text, "\n") {
			fields := strings.Fields(line)
			if len(fields) < 3 || fields[1] != "mcp" {
				continue
			}
			host := fields[0]
			if m := addJSON.FindStringSubmatch(line); m != nil {
				var server map[string]any
				require.NoError(t, json.Unmarshal([]byte(m[1]), &server), "%s: add-json's argument parses", where)
				_, wrapped := server["mcpServers"]
				assert.False(t, wrapped, "%s: add-json takes the inner object", where)
				checkServer(t, where, server, read)
				counts["add-json"]++
				continue
			}
			settings := envFlag.FindAllStringSubmatch(line, -1)
			require.NotEmpty(t, settings, "%s: %s mcp add sets the environment", where, host)
			for _, m := range settings {
				assert.True(t, read[m[1]], "%s: %s is a variable the server reads", where, m[1])
			}
			if host != "gemini" { // gemini takes the command as its second argument
				dashes := " -- "
				if f.lang == "powershell" {
					dashes = " '--' " // PowerShell passes a bare -- on only in some versions
				}
				assert.Contains(t, line, dashes, "%s: the command comes after --", where)
			}
			counts[host]++
		}
	}
}

// TestDocsLinksResolve: every relative link in the docs names a file that
// exists, and every #anchor a heading of the page it points into, as
// GitHub spells heading anchors.
func TestDocsLinksResolve(t *testing.T) {
	t.Parallel()
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fenced := regexp.MustCompile("(?s)```.*?```")
	anchors := map[string]map[string]bool{}
	for _, rel := range docFiles(t) {
		text := fenced.ReplaceAllString(readDoc(t, rel), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := rel
			if path != "" {
				file = filepath.ToSlash(filepath.Join(filepath.Dir(rel), path))
			}
			_, err := os.Stat(filepath.Join(root(t), filepath.FromSlash(file)))
			if !assert.NoError(t, err, "%s links %s, which does not exist", rel, target) || anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			if anchors[file] == nil {
				anchors[file] = headingAnchors(readDoc(t, file))
			}
			assert.True(t, anchors[file][anchor], "%s links %s, but %s has no such heading", rel, target, file)
		}
	}
}

// headingAnchors are the anchors GitHub gives a page's headings: lower
// case, letters, digits, - and _ kept, spaces made -, the rest dropped,
// and a repeated one suffixed -1, -2 ….
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			inFence = !inFence
		}
		hashes := len(line) - len(strings.TrimLeft(line, "#"))
		if inFence || hashes == 0 || hashes > 6 || !strings.HasPrefix(line[hashes:], " ") {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(line[hashes:])) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		a := slug.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestEveryUserPageHasItsTranslation: each user page and its Simplified
// Chinese twin exist, link each other before their first section, and
// show the same code blocks in the same order (a block a page repeats is
// counted once), and no Chinese page is left without its English one.
// What a reader replaces (a <placeholder>) and a diagram's labels are
// written in the page's language; the rest of a block is the same.
func TestEveryUserPageHasItsTranslation(t *testing.T) {
	t.Parallel()
	pages := userPages(t)
	var twins []string
	for _, p := range pages {
		twins = append(twins, p.zh)
		t.Run(p.en, func(t *testing.T) {
			for _, pair := range [][2]string{{p.en, p.zh}, {p.zh, p.en}} {
				text := readDoc(t, pair[0])
				head, _, _ := strings.Cut(text, "\n## ")
				rel, err := filepath.Rel(filepath.Dir(pair[0]), pair[1])
				require.NoError(t, err)
				assert.Contains(t, head, "]("+filepath.ToSlash(rel)+")", "%s links %s at the top", pair[0], pair[1])
			}
			blocks := func(page string) []string {
				var out []string
				for _, f := range fences(t, page) {
					text := placeholder.ReplaceAllString(f.text, "<…>")
					if f.lang == "" && strings.Contains(f.text, "──") {
						text = fmt.Sprintf("a diagram of %d lines", strings.Count(f.text, "\n"))
					}
					if s := f.lang + "\n" + text; !slices.Contains(out, s) {
						out = append(out, s)
					}
				}
				return out
			}
			assert.Equal(t, blocks(p.en), blocks(p.zh), "the same code blocks, in the same order")
		})
	}
	for _, rel := range docFiles(t) {
		if strings.HasPrefix(rel, "docs/zh-CN/") {
			assert.Contains(t, twins, rel, "%s translates no English page", rel)
		}
	}
}

// TestReadmeBuildCommandsAreWhatTheyClaim: the README says the binary
// needs Go only (go build, go install ./cmd/snowluma-mcp) and that make
// build also installs the tests' npm packages; the Makefile is held to
// it, and to bringing the generated docs up to date.
func TestReadmeBuildCommandsAreWhatTheyClaim(t *testing.T) {
	t.Parallel()
	readme := strings.Join(strings.Fields(readDoc(t, "README.md")), " ")
	for _, claim := range []string{
		"go build -o bin/snowluma-mcp ./cmd/snowluma-mcp",
		"`go install ./cmd/snowluma-mcp`",
		"`make build` once (the binary, and the npm packages the tests use",
	} {
		assert.Contains(t, readme, claim)
	}
	recipe := func(target string) string {
		cmd := exec.Command("make", "-n", target)
		cmd.Dir = root(t)
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
	assert.Contains(t, build, "generate ./cmd/docgen")
}

// TestContributingIsTrue: what CONTRIBUTING names exists. Every module
// go.mod requires directly is named in its "Dependencies, and why" (a
// module path named there also covers the modules under it, as otel covers
// otel/trace), and nothing go.mod no longer requires is named there; and
// every path, file and test it names in backticks is in the tree, so a
// recipe never sends the next engineer to a file or test that is gone.
func TestContributingIsTrue(t *testing.T) {
	t.Parallel()
	t.Run("every dependency is explained", contributingExplainsEveryDependency)
	t.Run("every path and test it names exists", contributingNamesWhatExists)
}

func contributingExplainsEveryDependency(t *testing.T) {
	t.Parallel()
	var direct, all []string
	for _, line := range strings.Split(readDoc(t, "go.mod"), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.Contains(f[0], ".") && strings.HasPrefix(f[1], "v") {
			all = append(all, f[0])
			if !strings.Contains(line, "// indirect") {
				direct = append(direct, f[0])
			}
		}
	}
	require.Contains(t, direct, "github.com/modelcontextprotocol/go-sdk", "go.mod was read")

	_, deps, ok := strings.Cut(readDoc(t, "CONTRIBUTING.md"), "\n## Dependencies, and why\n")
	require.True(t, ok, "CONTRIBUTING has a section \"Dependencies, and why\"")
	deps, _, _ = strings.Cut(deps, "\n## ")
	var named []string
	for _, m := range regexp.MustCompile("(?m)^- `([^`]+)`").FindAllStringSubmatch(deps, -1) {
		named = append(named, m[1])
	}
	for _, d := range direct {
		assert.True(t, slices.ContainsFunc(named, func(n string) bool { return d == n || strings.HasPrefix(d, n+"/") }),
			"go.mod requires %s, which CONTRIBUTING's dependencies do not name", d)
	}
	for _, n := range named {
		if strings.Contains(n, ".") && strings.Contains(n, "/") { // a module path, not npm
			assert.True(t, slices.ContainsFunc(all, func(d string) bool { return d == n || strings.HasPrefix(d, n+"/") }),
				"CONTRIBUTING names %s, which go.mod does not require", n)
		}
	}
}

func contributingNamesWhatExists(t *testing.T) {
	t.Parallel()
	r := root(t)
	files := map[string]bool{} // every file's base name in the tree
	tests := map[string]bool{} // every test, example and benchmark declared
	declared := regexp.MustCompile(`(?m)^func ((?:Test|Example|Benchmark)\w*)\(`)
	require.NoError(t, filepath.WalkDir(r, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		files[d.Name()] = true
		if strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range declared.FindAllStringSubmatch(string(b), -1) {
				tests[m[1]] = true
			}
		}
		return nil
	}))
	require.True(t, tests["TestTheDocsAreGenerated"], "the tests were read")

	testName := regexp.MustCompile(`^(Test|Example|Benchmark)\w*$`)
	fileName := regexp.MustCompile(`^\.?[\w.-]+\.(go|md|json|js|mjs|yml|yaml|mod|sum|html)$`)
	method := regexp.MustCompile(`^[a-z]+/[a-z]+$`)
	exists := func(path string) bool { _, err := os.Stat(path); return err == nil }
	seen := 0
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(readDoc(t, "CONTRIBUTING.md"), -1) {
		name := m[1]
		first, _, _ := strings.Cut(name, "/")
		switch {
		case strings.ContainsAny(name, " <…@"), strings.Contains(first, ".") && strings.Contains(name, "/") && first != ".ci",
			method.MatchString(name) && !exists(filepath.Join(r, first)):
			// a command, a placeholder, an npm package, a module path or an
			// MCP method (tools/list)
		case testName.MatchString(name):
			seen++
			assert.True(t, tests[name], "CONTRIBUTING names the test %s, which no test file declares", name)
		case strings.Contains(name, "/"):
			seen++
			matches, err := filepath.Glob(filepath.Join(r, filepath.FromSlash(strings.TrimSuffix(name, "/"))))
			require.NoError(t, err)
			assert.NotEmpty(t, matches, "CONTRIBUTING names %s, which the tree lacks", name)
		case fileName.MatchString(name):
			seen++
			assert.True(t, files[name], "CONTRIBUTING names the file %s, which the tree lacks", name)
		}
	}
	assert.Greater(t, seen, 50, "the names were read")
}

// TestReadmesCountTheCatalog: the number of actions each README names is
// the bundled catalog's.
func TestReadmesCountTheCatalog(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	n := len(cat.Actions())
	assert.Contains(t, readDoc(t, "README.md"), fmt.Sprintf("catalog of %d actions", n))
	assert.Contains(t, readDoc(t, "README.zh-CN.md"), fmt.Sprintf("共 %d 个动作", n))
}
