package search

import (
	_ "embed"
	"strings"
)

// People name an action with words its name, summary and vocabulary may
// not hold. The labelled request sets (catalog/testdata/requests) hold
// thousands of requests, each with the actions that serve it; a term that
// two or more of an action's requests share is a word people use for it.
// Those terms are one more field of the action's document, weighted low
// (weightLearned): they add to what the other fields match and never stand
// in for them, as a search engine expands its documents with the queries
// that led to them. learned.txt holds them, one action a line; it is
// trained from the tuning halves only, never a held-out half, and
// learned_test.go keeps it equal to what training on them gives (rerun
// with LEARN_WRITE=1 after changing how a request is read).

//go:embed learned.txt
var learnedTable string

// learnedTerms are learned.txt's terms by action name: parsed when the
// index is built, on the first search.
func learnedTerms() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(learnedTable, "\n") {
		name, terms, ok := strings.Cut(line, "\t")
		if ok {
			m[name] = strings.Fields(terms)
		}
	}
	return m
}
