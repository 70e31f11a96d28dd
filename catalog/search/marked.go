package search

import (
	"strings"
)

// A search reads every request through dozens of patterns, and a regular
// expression costs even when it finds nothing; most patterns can only
// match where a word of theirs is. A marked pattern names those words and
// runs only where one of them is.

// marked is a pattern with the words (marks) it cannot match without.
type marked struct {
	marks []string
	re    *pattern
}

// markedPatterns is a list of patterns any of which may match.
type markedPatterns []marked

// MatchString reports whether any pattern whose mark q holds matches q.
func (ps markedPatterns) MatchString(q string) bool {
	for _, p := range ps {
		if containsAny(q, p.marks) && p.re.MatchString(q) {
			return true
		}
	}
	return false
}

// blank blanks in q the matches of every pattern whose mark lower, q
// lower-cased, holds. A pattern's first group, when it has one, is what
// the match needs before it and is kept (撤回他说的: 回 is no part of who
// spoke).
func (ps markedPatterns) blank(q, lower string) string {
	for _, p := range ps {
		if !containsAny(lower, p.marks) {
			continue
		}
		var b strings.Builder
		last := 0
		for _, m := range p.re.FindAllStringSubmatchIndex(q, -1) {
			from := m[0]
			if len(m) > 2 && m[3] > m[2] {
				from = m[3]
			}
			b.WriteString(q[last:from])
			b.WriteString(blanked(q[from:m[1]]))
			last = m[1]
		}
		if last > 0 {
			b.WriteString(q[last:])
			q = b.String()
		}
	}
	return q
}

// blanked is s as blanks, one a byte, so that what follows keeps its
// place.
func blanked(s string) string { return strings.Repeat(" ", len(s)) }

// mark builds a marked pattern.
func mark(marks []string, pattern string) marked {
	for _, m := range marks {
		if m != strings.ToLower(m) {
			panic("a mark is lower case: it is looked for in a lower-cased request")
		}
	}
	return marked{marks: marks, re: lazy(pattern)}
}
