package catalog

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

//go:embed catalog.gen.json
var generated []byte

// Catalog is the loaded, read-only catalog with its lookup indexes. It is
// safe for concurrent use.
//
// The embedded catalog is parsed on first use, not at Load: decoding its
// 470 KB was the largest single cost of starting the server (about 5 ms
// of a cold start to the first tools/list), and a session that never calls
// a catalog tool never needs it parsed. The catalog resource serves the raw
// bytes and needs no parse at all. The embedded document is the one the
// tests parse (TestEmbeddedCatalogParses), so a binary cannot carry one
// that fails; Parse, for any other document, still parses at once and
// reports what is wrong.
type Catalog struct {
	raw []byte

	once   sync.Once
	err    error
	doc    Document
	byName map[string]*Action
	index  map[*Action]haystack
	corpus haystack  // every action's searchable text
	han    *hanIndex // its Chinese, for splitting queries (terms.go)

	groupsMu sync.Mutex
	groups   map[string][]bool // Catalog.matching's answers, by a synonym group's first word
}

// Load returns the embedded catalog, to be parsed on first use.
func Load() (*Catalog, error) { return &Catalog{raw: generated}, nil }

// parse decodes c.raw and builds the indexes, once.
func (c *Catalog) parse() {
	c.byName, c.index, c.groups = map[string]*Action{}, map[*Action]haystack{}, map[string][]bool{}
	if err := json.Unmarshal(c.raw, &c.doc); err != nil {
		c.err = fmt.Errorf("catalog: %w", err)
		return
	}
	var all []string
	for _, a := range c.doc.Actions {
		c.byName[a.Name] = a
		c.index[a] = newHaystack(a)
		all = append(all, c.index[a].text)
	}
	c.corpus = haystackOf(nil, strings.Join(all, "\n"))
	c.han = newHanIndex(c.corpus.text)
	for _, a := range c.doc.Actions {
		for _, alias := range a.Aliases {
			if _, taken := c.byName[alias]; taken {
				c.err = fmt.Errorf("catalog: alias %q of %s collides", alias, a.Name)
				return
			}
			c.byName[alias] = a
		}
	}
}

// parsed parses the catalog on first use. Only the embedded catalog is
// ever parsed here (Parse has done it for any other), and the tests
// guarantee it parses; a build that broke it anyway fails loudly here.
func (c *Catalog) parsed() *Catalog {
	c.once.Do(c.parse)
	if c.err != nil {
		panic("snowluma-mcp: packaging error: the embedded " + c.err.Error())
	}
	return c
}

// Version is the SnowLuma release the catalog describes.
func (c *Catalog) Version() string { return c.parsed().doc.Version }

// Raw is the whole catalog document as JSON, as served by the catalog resource.
func (c *Catalog) Raw() []byte { return c.raw }

// Actions returns every action in catalog order. Callers must not modify it.
func (c *Catalog) Actions() []*Action { return c.parsed().doc.Actions }

// Categories returns every category with its action count, in catalog order.
func (c *Catalog) Categories() []Category { return c.parsed().doc.Categories }

// Lookup finds an action by name or alias. Matching is exact, as SnowLuma's is.
func (c *Catalog) Lookup(name string) (*Action, bool) {
	a, ok := c.parsed().byName[name]
	return a, ok
}

// HasCategory reports whether name is a known category.
func (c *Catalog) HasCategory(name string) bool {
	for _, cat := range c.parsed().doc.Categories {
		if cat.Category == name {
			return true
		}
	}
	return false
}

// Filter selects actions for list and search; nil fields do not filter.
type Filter struct {
	Category *string
	ReadOnly *bool
	Stream   *bool
}

// Match reports whether a passes every set field of f.
func (f Filter) Match(a *Action) bool {
	return (f.Category == nil || a.Category == *f.Category) &&
		(f.ReadOnly == nil || a.ReadOnly == *f.ReadOnly) &&
		(f.Stream == nil || a.Stream == *f.Stream)
}

// List returns the actions passing f, in catalog order.
func (c *Catalog) List(f Filter) []*Action {
	out := []*Action{}
	for _, a := range c.parsed().doc.Actions {
		if f.Match(a) {
			out = append(out, a)
		}
	}
	return out
}

// Search returns the actions passing f whose name, an alias, the summary or
// the category contains query, ignoring case, in catalog order.
func (c *Catalog) Search(query string, f Filter) []*Action {
	q := strings.ToLower(strings.TrimSpace(query))
	out := []*Action{}
	for _, a := range c.parsed().doc.Actions {
		if f.Match(a) && strings.Contains(c.index[a].text, q) {
			out = append(out, a)
		}
	}
	return out
}

// Find is a search as the first call makes it: the actions whose text
// contains query (Search, in catalog order: the seed's rule), and beside
// them the closest ones by keywords (Suggest, ranked by what the request
// asks for) when there are none, or when the ranking's best match is not
// the first of them: a hasty model calls the first name it sees, and the
// catalog's order may put a delete first. Suggest stops early once ctx is
// done.
func (c *Catalog) Find(ctx context.Context, query string, f Filter) (found, suggested []*Action) {
	found = c.Search(query, f)
	ranked := c.Suggest(ctx, query, f)
	if len(found) == 0 || (len(ranked) > 0 && ranked[0] != found[0]) {
		suggested = ranked
	}
	return found, suggested
}
