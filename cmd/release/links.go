package main

import (
	"regexp"
	"strings"
)

// A README is read outside the repository: unpacked from an archive,
// inside a bundle, or on the npm registry's page of the package. Its
// links to what ships beside it (the other README, the licence) resolve
// there; its links to the rest of the tree (docs/, CONTRIBUTING.md) would
// not, so the shipped copy points them at the repository, at the commit
// the release was built from.

// markdownLink is a Markdown link's target, when it is a path in this
// tree: not a URL, not an anchor of the page itself.
var markdownLink = regexp.MustCompile(`\]\(([^)#:\s][^):\s]*)\)`)

// snapshotRev is the commit a snapshot version (Go's pseudo-version form,
// see fromGit) names.
var snapshotRev = regexp.MustCompile(`\d{14}-([0-9a-f]{12})(?:\+dirty)?$`)

// treeRef is what a link into the repository names for version: a
// release's tag, or a snapshot's commit.
func treeRef(version string) string {
	if m := snapshotRev.FindStringSubmatch(version); m != nil {
		return m[1]
	}
	return "v" + version
}

// shippedTexts returns docs as they ship with version: each Markdown
// file's links to files that do not ship beside it point at the
// repository instead.
func shippedTexts(docs []entry, version string) []entry {
	shipped := map[string]bool{}
	for _, d := range docs {
		shipped[d.Name] = true
	}
	base := repoURL + "/blob/" + treeRef(version) + "/"
	out := make([]entry, len(docs))
	for i, d := range docs {
		out[i] = d
		if !strings.HasSuffix(d.Name, ".md") {
			continue
		}
		out[i].Data = markdownLink.ReplaceAllFunc(d.Data, func(m []byte) []byte {
			target := string(markdownLink.FindSubmatch(m)[1])
			path, _, _ := strings.Cut(target, "#")
			if shipped[path] {
				return m
			}
			return []byte("](" + base + target + ")")
		})
	}
	return out
}
