//go:build !windows

// The check that every row names a benchmark that exists runs the host's
// go command, which the Windows build has no copy of under Wine; it runs in
// the host suite, where make bench runs too.

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryRowNamesABenchmarkThatExists runs `go list` on every row's
// package, the way `make bench` will name it, and reads the package's test
// files for the benchmarks its -bench pattern selects. A package that moved
// or a benchmark that was renamed breaks this test instead of the table.
func TestEveryRowNamesABenchmarkThatExists(t *testing.T) {
	for _, r := range rows {
		t.Run(r.what, func(t *testing.T) {
			pkg := r.args[len(r.args)-1]
			list := exec.Command("go", "list", "-f", "{{.ImportPath}}\n{{.Dir}}\n{{range .TestGoFiles}}{{.}} {{end}}{{range .XTestGoFiles}}{{.}} {{end}}", pkg)
			list.Dir = filepath.Join("..", "..")
			out, err := list.CombinedOutput()
			require.NoError(t, err, "go list %s: %s", pkg, out)
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			require.Len(t, lines, 3, "go list %s printed %q", pkg, out)
			assert.Equal(t, module+"/"+strings.TrimPrefix(pkg, "./"), lines[0])

			names := benchmarks(t, lines[1], strings.Fields(lines[2]))
			for _, alt := range strings.Split(r.args[4], "|") {
				re := regexp.MustCompile(alt)
				found := false
				for _, n := range names {
					found = found || re.MatchString(n)
				}
				assert.True(t, found, "-bench %s: no benchmark in %s matches %q (it has %v)", r.args[4], pkg, alt, names)
			}
		})
	}
}

// benchmarks lists the Benchmark functions declared in a package's test files.
func benchmarks(t *testing.T, dir string, files []string) []string {
	t.Helper()
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		parsed, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range parsed.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Benchmark") {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}
