package catalog

import (
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
	text   map[*Action]string // name, aliases, summary and category, lower-cased (Search)
}

// Load returns the embedded catalog, to be parsed on first use.
func Load() (*Catalog, error) { return &Catalog{raw: generated}, nil }

// parse decodes c.raw and builds the indexes, once.
func (c *Catalog) parse() {
	c.byName, c.text = map[string]*Action{}, map[*Action]string{}
	if err := json.Unmarshal(c.raw, &c.doc); err != nil {
		c.err = fmt.Errorf("catalog: %w", err)
		return
	}
	for _, a := range c.doc.Actions {
		c.byName[a.Name] = a
		c.text[a] = strings.ToLower(strings.Join(append(append([]string{a.Name}, a.Aliases...), a.Summary, a.Category), "\n"))
	}
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
// the category contains query, ignoring case, in catalog order: the seed's
// default search, which the ranked search (package catalog/search) sits
// beside.
func (c *Catalog) Search(query string, f Filter) []*Action {
	q := strings.ToLower(strings.TrimSpace(query))
	out := []*Action{}
	for _, a := range c.parsed().doc.Actions {
		if f.Match(a) && strings.Contains(c.text[a], q) {
			out = append(out, a)
		}
	}
	return out
}
