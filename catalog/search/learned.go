package search

import (
	_ "embed"
	"strconv"
	"strings"
)

// People name an action with words its name, summary and vocabulary may
// not hold. The labelled request sets (catalog/testdata/requests) hold
// thousands of requests, each with the actions that serve it. learned.txt
// counts, for each action, how many of its tuning requests hold each term
// (read as a search reads a request), and under ":n" how many it has; two
// parts of the ranking learn from it:
//   - a term that two or more of an action's requests share is a word
//     people use for it: one more field of the action's document,
//     weighted low (weightLearned), as a search engine expands its
//     documents with the queries that led to them;
//   - every count feeds the query classifier (classifier.go), which adds
//     to each matched action's score how likely a request with these
//     terms is to be one written for it.
//
// learned.txt is trained from the tuning halves only, never a held-out
// half, and learned_test.go keeps it equal to what training on them gives
// (rerun with LEARN_WRITE=1 after changing how a request is read).

//go:embed learned.txt
var learnedTable string

// learnedMinRequests is how many of an action's tuning requests must hold
// a term before it joins the action's document: a term one request holds
// says more of that request (its payload, its writer) than of how people
// name the action. The classifier weighs such terms too, by their count.
const learnedMinRequests = 2

// learnedCounts are learned.txt's counts: action name → term → how many of
// its tuning requests hold the term. Parsed when the index is built, on
// the first search.
func learnedCounts() map[string]map[string]int {
	m := map[string]map[string]int{}
	for _, line := range strings.Split(learnedTable, "\n") {
		name, terms, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		m[name] = map[string]int{}
		for _, tc := range strings.Fields(terms) {
			at := strings.LastIndexByte(tc, ':')
			if n, err := strconv.Atoi(tc[at+1:]); at > 0 && err == nil && n > 0 {
				m[name][tc[:at]] = n
			}
		}
	}
	return m
}

// learnedField is each action's learned field: the terms at least
// learnedMinRequests of its requests hold, in the order counts names
// them.
func learnedField(counts map[string]map[string]int) map[string][]string {
	out := map[string][]string{}
	for a, terms := range counts {
		for t, n := range terms {
			if n >= learnedMinRequests && t != requestsKey {
				out[a] = append(out[a], t)
			}
		}
	}
	return out
}
