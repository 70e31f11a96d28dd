package search

import (
	"regexp"
	"sync"
)

// The search reads requests through about ninety regular expressions. A
// server that never searches (most sessions only call actions) need not
// hold them compiled, so each is compiled on the first search that uses
// it, as the trained tables are parsed then (learned.go, prior.go).
// TestEveryPatternCompiles compiles them all, so that a bad one fails a
// test rather than a search.

// pattern is a regular expression compiled on its first use.
type pattern struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

// patterns are every pattern made, for the test that compiles them.
var patterns []*pattern

// lazy makes a pattern of expr.
func lazy(expr string) *pattern {
	p := &pattern{expr: expr}
	patterns = append(patterns, p)
	return p
}

func (p *pattern) compiled() *regexp.Regexp {
	p.once.Do(func() { p.re = regexp.MustCompile(p.expr) })
	return p.re
}

func (p *pattern) MatchString(s string) bool { return p.compiled().MatchString(s) }

func (p *pattern) ReplaceAllString(s, repl string) string {
	return p.compiled().ReplaceAllString(s, repl)
}

func (p *pattern) ReplaceAllStringFunc(s string, repl func(string) string) string {
	return p.compiled().ReplaceAllStringFunc(s, repl)
}

func (p *pattern) FindStringIndex(s string) []int { return p.compiled().FindStringIndex(s) }

func (p *pattern) FindStringSubmatchIndex(s string) []int {
	return p.compiled().FindStringSubmatchIndex(s)
}

func (p *pattern) FindAllStringIndex(s string, n int) [][]int {
	return p.compiled().FindAllStringIndex(s, n)
}

func (p *pattern) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return p.compiled().FindAllStringSubmatchIndex(s, n)
}

func (p *pattern) FindStringSubmatch(s string) []string { return p.compiled().FindStringSubmatch(s) }
