package stages

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/snowluma/snowluma-mcp/"

// server is the module-relative path of the package that assembles the MCP
// server: it lives with its command, above everything it assembles.
const server = "cmd/snowluma-mcp/internal/server"

// violations checks the floors of the house, over a graph of module-relative
// package paths to the module packages they import:
//   - internal/ is the ground floor: a package under it imports only
//     packages under internal/ and uiasset (the panel's bytes), never a part
//     above it, so no import runs back up;
//   - a stage imports the pipeline and the domain below it, never another
//     stage (nor the order);
//   - handlers and the commands (with the server they assemble) import the
//     stage order (stages), never one stage;
//   - the shared parts (pipeline, catalog) lie below the stages and handlers.
func violations(graph map[string][]string) []string {
	var out []string
	for pkg, imports := range graph {
		for _, imp := range imports {
			if msg := broken(pkg, imp); msg != "" {
				out = append(out, pkg+" imports "+imp+": "+msg)
			}
		}
	}
	sort.Strings(out)
	return out
}

func broken(pkg, imp string) string {
	under := func(p, part string) bool { return p == part || strings.HasPrefix(p, part+"/") }
	isStage := func(p string) bool { return strings.HasPrefix(p, "stages/") }
	upper := func(p string) bool { return under(p, "stages") || p == "handlers" || under(p, "cmd") }
	switch {
	case under(pkg, "internal") && !under(imp, "internal") && !under(imp, "uiasset"):
		return "internal/ is the ground floor and imports only internal/ and uiasset; turn the dependency around (declare what it needs) or move the package up"
	case isStage(pkg) && (imp == "stages" || isStage(imp)) && imp != pkg:
		return "a stage never imports another stage; move shared code below the stages"
	case (pkg == "handlers" || under(pkg, "cmd")) && isStage(imp):
		return "only the stage order (stages) may be imported here"
	case !upper(pkg) && !under(pkg, "e2e") && upper(imp):
		return "a shared package must lie below the stages, handlers and commands"
	}
	return ""
}

// part is the top-level part of the house a package belongs to.
func part(p string) string { first, _, _ := strings.Cut(p, "/"); return first }

// circles lists the top-level parts that import each other in a loop: Go
// refuses a loop of packages, but not one of parts (pipeline -> internal/x ->
// catalog -> pipeline), and such a loop has no floor to stand on.
func circles(graph map[string][]string) []string {
	parts := map[string]map[string]bool{}
	for pkg, imports := range graph {
		for _, imp := range imports {
			if a, b := part(pkg), part(imp); a != b {
				if parts[a] == nil {
					parts[a] = map[string]bool{}
				}
				parts[a][b] = true
			}
		}
	}
	var out []string
	for start := range parts {
		seen := map[string]bool{}
		stack := []string{start}
		for len(stack) > 0 {
			at := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for next := range parts[at] {
				if next == start {
					out = append(out, start)
				}
				if !seen[next] {
					seen[next] = true
					stack = append(stack, next)
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func TestLayeringRulesCatchEachBreak(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		graph map[string][]string
		want  int
	}{
		{"accepts the intended shape", map[string][]string{
			"stages/gate": {"pipeline", "catalog", "internal/fault"}, "stages": {"stages/gate", "pipeline"},
			server: {"stages", "pipeline", server + "/tasks", "internal/mcp/events"}, server + "/tasks": {"pipeline", "internal/task"},
			"internal/mcp/events": {"internal/hub"}, "internal/mcp/generation": {"uiasset"},
			"handlers": {"pipeline", "internal/mcp/generation"}, "cmd/snowluma-mcp": {"stages", server, "handlers"},
			"pipeline": {"catalog", "internal/fault"},
		}, 0},
		{"refuses a stage importing another stage", map[string][]string{"stages/calllog": {"stages/trace"}}, 1},
		{"refuses a stage importing the order", map[string][]string{"stages/gate": {"stages"}}, 1},
		{"refuses handlers importing one stage", map[string][]string{"handlers": {"stages/diagnostics"}}, 1},
		{"refuses the server importing one stage", map[string][]string{server: {"stages/input"}}, 1},
		{"refuses a shared package importing a stage", map[string][]string{"pipeline": {"stages/trace"}}, 1},
		{"refuses a shared package importing handlers", map[string][]string{"catalog": {"handlers"}}, 1},
		{"refuses internal importing the server", map[string][]string{"internal/hub": {server}}, 1},
		{"refuses internal importing the pipeline", map[string][]string{"internal/task": {"pipeline"}}, 1},
		{"refuses internal importing the catalog", map[string][]string{"internal/content": {"catalog/search"}}, 1},
		{"refuses internal importing handlers", map[string][]string{"internal/span": {"handlers"}}, 1},
		{"accepts internal importing the panel's bytes", map[string][]string{"internal/mcp/generation": {"uiasset"}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Len(t, violations(tt.graph), tt.want)
		})
	}
}

func TestCirclesFindsALoopOfParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		graph map[string][]string
		want  []string
	}{
		{"accepts floors that read top to bottom", map[string][]string{
			"handlers": {"pipeline"}, "pipeline": {"catalog", "internal/fault"}, "catalog": {"internal/typo"},
		}, nil},
		{"finds a loop through internal", map[string][]string{
			"pipeline": {"internal/task"}, "internal/task": {"catalog"}, "catalog/search": {"pipeline"},
		}, []string{"catalog", "internal", "pipeline"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, circles(tt.graph))
		})
	}
}

// TestLayering holds the real tree to the rules: one floor rule for
// internal/, with no exception, and no loop of parts.
func TestLayering(t *testing.T) {
	t.Parallel()
	graph := importGraph(t, "..")
	require.Contains(t, graph, "stages/gate", "the walk found the stage packages")
	require.Contains(t, graph, "handlers")
	require.Contains(t, graph, "internal/task")
	require.Contains(t, graph, server, "the server package is where the rules expect it")
	require.Contains(t, graph, server+"/tasks", "so is its tasks extension")
	assert.Empty(t, violations(graph))
	assert.Empty(t, circles(graph))
}

// importGraph reads the module-internal imports of every package's non-test
// files under root.
func importGraph(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// What the go command leaves out too ("." and "_" names,
			// testdata), and npm's trees.
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if _, ok := graph[pkg]; !ok {
			graph[pkg] = nil
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if rest, ok := strings.CutPrefix(imp, module); ok {
				graph[pkg] = append(graph[pkg], rest)
			}
		}
		return nil
	})
	require.NoError(t, err)
	return graph
}

// TestTopLevelShowsTheDesign keeps the repository's first screen to the
// parts of the design; everything private lives under internal/.
func TestTopLevelShowsTheDesign(t *testing.T) {
	t.Parallel()
	design := map[string]bool{
		"cmd": true, "pipeline": true, "stages": true, "handlers": true, "catalog": true,
		"uiasset": true, "e2e": true, "internal": true, "docs": true,
		"go.mod": true, "go.sum": true, "Makefile": true, "README.md": true, "README.zh-CN.md": true, "CONTRIBUTING.md": true, "LICENSE": true,
		// The developer tools make lint runs, pinned apart from go.mod.
		"tools.mod": true, "tools.sum": true,
		// Build outputs, ignored by git.
		"bin": true, "dist": true,
	}
	entries, err := os.ReadDir("..")
	require.NoError(t, err)
	var extra []string
	for _, e := range entries {
		if name := e.Name(); !strings.HasPrefix(name, ".") && !design[name] {
			extra = append(extra, name)
		}
	}
	assert.Empty(t, extra, "a new top-level entry belongs under internal/ unless it is part of the design")
}
