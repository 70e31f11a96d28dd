package main

import (
	"fmt"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// packageTable is CONTRIBUTING's "Where things live": every Go package
// of the module under root, with the first sentence of its doc comment.
// The doc comment is where a package says why it exists, so the table
// cannot drift from it; a package without one is an error. A
// contributor's table, in English only.
func packageTable(root string) (string, error) {
	var rows [][]string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "dist" || name == "bin") {
			return filepath.SkipDir
		}
		synopsis, ok, err := packageSynopsis(path)
		if err != nil || !ok {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rows = append(rows, []string{code(filepath.ToSlash(rel)), synopsis})
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(rows, func(i, j int) bool { return strings.Trim(rows[i][0], "`") < strings.Trim(rows[j][0], "`") })
	return table([]string{"path", "what"}, rows), nil
}

// packageSynopsis is the first sentence of the doc comment of the package
// in dir, without its "Package name" or "Command name" opening; false when
// dir holds no Go package (test files alone do not make one).
func packageSynopsis(dir string) (string, bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false, err
	}
	found := false
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		found = true
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return "", false, err
		}
		if f.Doc == nil {
			continue
		}
		s := new(doc.Package).Synopsis(f.Doc.Text())
		for _, opening := range []string{"Package " + f.Name.Name + " ", "Command " + filepath.Base(dir) + " "} {
			s = strings.TrimPrefix(s, opening)
		}
		return s, true, nil
	}
	if found {
		return "", false, fmt.Errorf("the package in %s has no doc comment: say there why it exists", dir)
	}
	return "", false, nil
}
