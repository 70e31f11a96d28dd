package stages

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/snowluma/snowluma-mcp/"

// server is the module-relative path of the package that assembles the MCP
// server: like handlers, it sits above the stage order, and so do the
// packages under it (its extensions, such as events).
const server = "internal/mcp/server"

// isServer reports whether p is the server package or one under it.
func isServer(p string) bool { return p == server || strings.HasPrefix(p, server+"/") }

// violations checks the layering the pipeline depends on, over a graph of
// module-relative package paths to the module packages they import:
//   - a stage imports the pipeline and the domain below it, never another
//     stage (nor the order);
//   - handlers and server (with the packages under it) import the stage
//     order (stages), never one stage;
//   - everything else that is not a command or a test harness (pipeline,
//     span, prompt, slot, fault, catalog …) lies below the stages, handlers
//     and server, so any of them can use it.
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
	isStage := func(p string) bool { return strings.HasPrefix(p, "stages/") }
	upper := func(p string) bool { return p == "stages" || isStage(p) || p == "handlers" || isServer(p) }
	switch {
	case isStage(pkg) && (imp == "stages" || isStage(imp)) && imp != pkg:
		return "a stage never imports another stage; move shared code below the stages"
	case (pkg == "handlers" || isServer(pkg)) && isStage(imp):
		return "only the stage order (stages) may be imported here"
	case !upper(pkg) && !strings.HasPrefix(pkg, "cmd/") && pkg != "e2e" && !strings.HasPrefix(pkg, "e2e/") && upper(imp):
		return "a shared package must lie below the stages, handlers and server"
	}
	return ""
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
			server: {"stages", "pipeline", server + "/events"}, server + "/events": {"internal/hub"},
			"handlers": {"pipeline"}, "cmd/snowluma-mcp": {"stages", server, "handlers"},
			"pipeline": {"catalog", "internal/fault"},
		}, 0},
		{"refuses a stage importing another stage", map[string][]string{"stages/calllog": {"stages/trace"}}, 1},
		{"refuses a stage importing the order", map[string][]string{"stages/gate": {"stages"}}, 1},
		{"refuses handlers importing one stage", map[string][]string{"handlers": {"stages/envelope"}}, 1},
		{"refuses server importing one stage", map[string][]string{server: {"stages/input"}}, 1},
		{"refuses a shared package importing a stage", map[string][]string{"pipeline": {"stages/trace"}}, 1},
		{"refuses a domain package importing the server", map[string][]string{"internal/hub": {server}}, 1},
		{"refuses a package under the server importing one stage", map[string][]string{server + "/events": {"stages/gate"}}, 1},
		{"refuses a domain package importing a package under the server", map[string][]string{"internal/hub": {server + "/events"}}, 1},
		{"refuses a shared package importing handlers", map[string][]string{"internal/span": {"handlers"}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Len(t, violations(tt.graph), tt.want)
		})
	}
}

// TestLayering holds the real tree to the rules.
func TestLayering(t *testing.T) {
	t.Parallel()
	graph := importGraph(t, "..")
	require.Contains(t, graph, "stages/gate", "the walk found the stage packages")
	require.Contains(t, graph, "handlers")
	require.Contains(t, graph, server, "the server package is where the rules expect it")
	require.Contains(t, graph, server+"/events", "so are the packages under it")
	require.Contains(t, graph, server+"/tasks")
	assert.Empty(t, violations(graph))
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
