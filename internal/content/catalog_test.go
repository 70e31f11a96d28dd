package content

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

var update = flag.Bool("update", false, "rewrite the golden list of declarations")

// TestCatalogDeclarations lists every action whose result the catalog
// declares to hold third-party content, so that adding, dropping or
// moving a declaration is a visible diff in review (go test
// ./internal/content -update after an intended change). Every declaration
// must name a shape this package knows and a path it reads. A write may
// have one too: what it answers reaches the agent like a read's.
func TestCatalogDeclarations(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	listed := map[string][]catalog.ContentSpot{}
	for _, a := range cat.Actions() {
		if len(a.ThirdParty) == 0 {
			continue
		}
		listed[a.Name] = a.ThirdParty
		for _, s := range a.ThirdParty {
			assert.True(t, known(s.Shape), "%s: unknown shape %q", a.Name, s.Shape)
			assert.True(t, validPath(s.At), "%s: unreadable path %q", a.Name, s.At)
		}
	}
	got, err := json.MarshalIndent(listed, "", "  ")
	require.NoError(t, err)
	path := filepath.Join("testdata", "declarations.golden.json")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./internal/content -update")
	assert.Equal(t, string(want), string(got)+"\n")
}

func TestValidPathReadsOnlyWhatStepsReadsAsWritten(t *testing.T) {
	t.Parallel()
	for path, ok := range map[string]bool{"": true, "[]": true, "messages[]": true, "a.b[]": true, "a[][]": false, "a..b": false, "a[": false, ".a": false} {
		assert.Equal(t, ok, validPath(path), path)
	}
}

// known reports whether name is a shape the catalog may declare.
func known(name string) bool {
	_, ok := shapes[name]
	return ok
}

// validPath reports whether path is a spot path steps reads as written:
// the catalog's declarations must all be.
func validPath(path string) bool {
	if path == "" {
		return true
	}
	for _, part := range strings.Split(path, ".") {
		name, _ := strings.CutSuffix(part, "[]")
		if strings.ContainsAny(name, "[]") || (name == "" && part != "[]") {
			return false
		}
	}
	return true
}
