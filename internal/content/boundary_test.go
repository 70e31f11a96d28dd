package content

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// boundaryRow is one row of the trust boundary, as the test reads it.
type boundaryRow struct {
	shape, field, where, decision, test string
}

// boundaryTable is Boundary, row by row.
func boundaryTable(t *testing.T) []boundaryRow {
	t.Helper()
	var rows []boundaryRow
	for _, f := range Boundary() {
		rows = append(rows, boundaryRow{shape: f.Shape, field: f.Name, where: f.Where, decision: f.Decision, test: f.Test})
	}
	require.NotEmpty(t, rows)
	return rows
}

// testNames are the Test functions of the whole module.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
		return nil
	})
	require.NoError(t, err)
	return names
}

// TestTrustBoundaryTable holds the trust boundary (Boundary, which
// docs/trust-boundary.md shows) to the shapes: it must list exactly the
// fields the filter takes an author (or a forward builder's claim) from,
// and each member whose words are not the item's author's ("no one's", or
// "words of `x`"), and what it says of the other fields it lists must be
// what the shapes do.
func TestTrustBoundaryTable(t *testing.T) {
	t.Parallel()
	rows := boundaryTable(t)
	all := map[string]*shape{"meta": metaEvent, "event": unknownEvent}
	for name, sh := range shapes {
		all[name] = sh
	}
	cat, err := catalog.Load()
	require.NoError(t, err)
	declared := map[string][]string{}
	for _, a := range cat.Actions() {
		for _, s := range a.ThirdParty {
			if !slices.Contains(declared[s.Shape], a.Name) {
				declared[s.Shape] = append(declared[s.Shape], a.Name)
			}
		}
	}
	backticked := regexp.MustCompile("`([^`]+)`")
	tests := testNames(t)

	listed, fielded := map[string][]string{}, map[string][]string{}
	for _, r := range rows {
		assert.True(t, tests[r.test], "%s %s: no test %s", r.shape, r.field, r.test)
		if strings.HasPrefix(r.shape, "(") {
			continue
		}
		sh, ok := all[r.shape]
		if !assert.True(t, ok, "%s is not a shape", r.shape) {
			continue
		}
		switch r.decision {
		case "author", "claim":
			listed[r.shape] = append(listed[r.shape], r.field)
			assert.Equal(t, r.decision == "claim", sh.claims, "%s %s: a claim exactly when the shape's authors are claims", r.shape, r.field)
		case "metadata":
			assert.True(t, sh.keepsField(r.field), "%s keeps %s", r.shape, r.field)
		case "words":
			assert.False(t, sh.keepsField(r.field), "%s does not keep %s", r.shape, r.field)
		case "no one's":
			paths, ok := sh.fields[r.field]
			assert.True(t, ok && len(paths) == 0, "%s %s: words of no one author", r.shape, r.field)
			fielded[r.shape] = append(fielded[r.shape], r.field)
		case "none":
			assert.Empty(t, sh.authors, "%s names no author", r.shape)
			assert.Equal(t, "—", r.field)
		default:
			by, ok := strings.CutPrefix(r.decision, "words of ")
			if !ok {
				t.Errorf("%s %s: unknown decision %q", r.shape, r.field, r.decision)
				break
			}
			assert.Equal(t, []string{strings.Trim(by, "`")}, sh.fields[r.field], "%s %s: words of the person %s names", r.shape, r.field, by)
			fielded[r.shape] = append(fielded[r.shape], r.field)
		}
		if actions, ok := declared[r.shape]; ok && r.where != "the same" {
			var named []string
			for _, m := range backticked.FindAllStringSubmatch(r.where, -1) {
				if _, isAction := cat.Lookup(m[1]); isAction {
					named = append(named, m[1])
				}
			}
			assert.ElementsMatch(t, actions, named, "%s: the actions the catalog declares it for", r.shape)
		}
	}
	for name, sh := range all {
		got := listed[name]
		slices.Sort(got)
		want := slices.Clone(sh.authors)
		slices.Sort(want)
		assert.Equal(t, want, got, "%s: the table lists its author fields, and only those", name)
		var fields []string
		for f := range sh.fields {
			fields = append(fields, f)
		}
		assert.ElementsMatch(t, fields, fielded[name], "%s: the table lists each member whose words are not the item's author's", name)
		if len(sh.authors) == 0 {
			assert.True(t, slices.ContainsFunc(rows, func(r boundaryRow) bool { return r.shape == name && r.decision == "none" }),
				"%s is listed as naming no author", name)
		}
	}
}

// keepsField reports whether a field of the table, plain or dotted, is
// metadata of shape s.
func (s *shape) keepsField(field string) bool {
	head, rest, dotted := strings.Cut(field, ".")
	if s.keeps([]byte(head)) {
		return true
	}
	return dotted && s.part([]byte(head))[rest]
}
