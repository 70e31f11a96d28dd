package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Lang is the language a page is written in.
type Lang int

const (
	English Lang = iota
	Chinese
)

// langOf is a page's language, by where it lives.
func langOf(rel string) Lang {
	rel = filepath.ToSlash(rel)
	if strings.HasPrefix(rel, "docs/zh-CN/") || rel == "README.zh-CN.md" {
		return Chinese
	}
	return English
}

// Page is one Markdown file: what it holds and what docgen makes of it.
type Page struct {
	Path      string
	Have      string
	Want      string
	Generated []string // the names of its markers, in order
}

// Changed says whether the page differs from what docgen writes.
func (p Page) Changed() bool { return p.Have != p.Want }

// pagePaths are the Markdown files under root that may carry markers:
// the READMEs, CONTRIBUTING and everything under docs/.
func pagePaths(root string) ([]string, error) {
	paths := []string{}
	for _, name := range []string{"README.md", "README.zh-CN.md", "CONTRIBUTING.md"} {
		paths = append(paths, filepath.Join(root, name))
	}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			paths = append(paths, path)
		}
		return err
	})
	return paths, err
}

// Generate reads every page under root and fills its markers.
func Generate(root string) ([]Page, error) {
	paths, err := pagePaths(root)
	if err != nil {
		return nil, err
	}
	blocks, err := newBlocks(root)
	if err != nil {
		return nil, err
	}
	var pages []Page
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil, err
		}
		lang := langOf(rel)
		p := Page{Path: path, Have: string(b)}
		p.Want, p.Generated, err = Fill(p.Have, func(name string) (string, error) { return blocks.render(name, lang) })
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		pages = append(pages, p)
	}
	return pages, nil
}

var marker = regexp.MustCompile(`(?m)^<!-- (BEGIN|END) GENERATED: ([a-z0-9-]+) -->$`)

// Fill replaces what lies between each pair of markers in text with
// render's text for the marker's name. A marker without its partner, or
// a pair around another pair, is an error, and so is a name render does
// not know.
func Fill(text string, render func(name string) (string, error)) (string, []string, error) {
	var out strings.Builder
	var names []string
	at := 0
	ms := marker.FindAllStringSubmatchIndex(text, -1)
	for i := 0; i < len(ms); i += 2 {
		begin := ms[i]
		kind, name := text[begin[2]:begin[3]], text[begin[4]:begin[5]]
		line := 1 + strings.Count(text[:begin[0]], "\n")
		if kind != "BEGIN" {
			return "", nil, fmt.Errorf("line %d: END GENERATED: %s without its BEGIN", line, name)
		}
		if i+1 >= len(ms) {
			return "", nil, fmt.Errorf("line %d: BEGIN GENERATED: %s without its END", line, name)
		}
		end := ms[i+1]
		if text[end[2]:end[3]] != "END" || text[end[4]:end[5]] != name {
			return "", nil, fmt.Errorf("line %d: BEGIN GENERATED: %s is not closed by its own END", line, name)
		}
		body, err := render(name)
		if err != nil {
			return "", nil, fmt.Errorf("line %d: %w", line, err)
		}
		out.WriteString(text[at:begin[1]])
		out.WriteString("\n")
		out.WriteString(strings.TrimRight(body, "\n"))
		out.WriteString("\n")
		at = end[0]
		names = append(names, name)
	}
	out.WriteString(text[at:])
	return out.String(), names, nil
}
