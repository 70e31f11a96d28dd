// Package search finds the catalog's actions for a request written as
// people write it, in English or Chinese: the ranked keywords search, the
// suggestions beside a default-mode search, the hint for a message
// segment, and the real names nearest an unknown one. It sits on the
// catalog, which holds the contracts and knows nothing of searching.
package search

import (
	"context"
	"strings"
	"sync"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// Index is a catalog's search index, built on its first search. It is
// safe for concurrent use.
type Index struct {
	cat *catalog.Catalog

	once   sync.Once
	all    []*catalog.Action
	at     map[*catalog.Action]int // each action's place in all
	index  map[*catalog.Action]haystack
	corpus haystack    // every action's searchable text
	han    *hanIndex   // its Chinese, for splitting queries (terms.go)
	bm25   *bm25       // the ranking's index (bm25.go)
	votes  *classifier // the query classifier (classifier.go)

	intents memo[intent] // what the last request asked for (Index.intent)

	groupsMu sync.Mutex
	groups   map[string][]bool // Index.matching's answers, by a synonym group's first word
}

// indexes holds each catalog's index: a server has one catalog, and its
// index is built once, on the first search, never at start-up.
var indexes sync.Map // *catalog.Catalog → *Index

// For returns cat's search index, built on first use.
func For(cat *catalog.Catalog) *Index {
	if x, ok := indexes.Load(cat); ok {
		return x.(*Index)
	}
	x, _ := indexes.LoadOrStore(cat, &Index{cat: cat})
	return x.(*Index)
}

// parsed builds the index once.
func (c *Index) parsed() *Index {
	c.once.Do(c.build)
	return c
}

func (c *Index) build() {
	c.all = c.cat.Actions()
	c.index, c.groups, c.at = map[*catalog.Action]haystack{}, map[string][]bool{}, map[*catalog.Action]int{}
	var all []string
	for i, a := range c.all {
		c.at[a] = i
		c.index[a] = newHaystack(a)
		all = append(all, c.index[a].text)
	}
	c.corpus = haystackOf(nil, strings.Join(all, "\n"))
	c.han = newHanIndex(c.corpus.text)
	counts := learnedCounts()
	c.bm25 = newBM25(c.all, learnedField(counts))
	c.votes = newClassifier(c.all, counts)
}

// Find is a search as the first call makes it: the actions whose text
// contains query (catalog.Search, in catalog order: the seed's rule), and
// beside them the closest ones by keywords (Suggest, ranked by what the
// request asks for) when there are none, or when the ranking's best match
// is not the first of them: a hasty model calls the first name it sees,
// and the catalog's order may put a delete first. Suggest stops early once
// ctx is done.
func (c *Index) Find(ctx context.Context, query string, f catalog.Filter) (found, suggested []*catalog.Action) {
	found = c.cat.Search(query, f)
	ranked := c.Suggest(ctx, query, f)
	if len(found) == 0 || (len(ranked) > 0 && ranked[0] != found[0]) {
		suggested = ranked
	}
	if len(suggested) == 0 && len(found) > 0 && !found[0].ReadOnly && c.intent(query) == intentRead {
		// Nothing ranked, and the catalog's order puts a change first for a
		// request that reads: the reads go first beside it.
		suggested = readsFirst(found)
	}
	return found, suggested
}

// readsFirst is as, the read-only actions first, each part in its order,
// at most MaxSuggestions.
func readsFirst(as []*catalog.Action) []*catalog.Action {
	out := make([]*catalog.Action, 0, min(len(as), MaxSuggestions))
	for _, read := range []bool{true, false} {
		for _, a := range as {
			if a.ReadOnly == read && len(out) < MaxSuggestions {
				out = append(out, a)
			}
		}
	}
	return out
}
