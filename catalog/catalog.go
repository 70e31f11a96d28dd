package catalog

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed catalog.gen.json
var generated []byte

// Catalog is the loaded, read-only catalog with its lookup indexes. It is
// safe for concurrent use.
type Catalog struct {
	doc    Document
	raw    []byte
	byName map[string]*Action
	index  map[*Action]haystack
}

// Load parses the embedded catalog.
func Load() (*Catalog, error) { return Parse(generated) }

// Parse parses a generated catalog document.
func Parse(raw []byte) (*Catalog, error) {
	c := &Catalog{raw: raw, byName: map[string]*Action{}, index: map[*Action]haystack{}}
	if err := json.Unmarshal(raw, &c.doc); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	for _, a := range c.doc.Actions {
		c.byName[a.Name] = a
		c.index[a] = newHaystack(a)
	}
	for _, a := range c.doc.Actions {
		for _, alias := range a.Aliases {
			if _, taken := c.byName[alias]; taken {
				return nil, fmt.Errorf("catalog: alias %q of %s collides", alias, a.Name)
			}
			c.byName[alias] = a
		}
	}
	return c, nil
}

// Version is the SnowLuma release the catalog describes.
func (c *Catalog) Version() string { return c.doc.Version }

// Raw is the whole catalog document as JSON, as served by the catalog resource.
func (c *Catalog) Raw() []byte { return c.raw }

// Actions returns every action in catalog order. Callers must not modify it.
func (c *Catalog) Actions() []*Action { return c.doc.Actions }

// Categories returns every category with its action count, in catalog order.
func (c *Catalog) Categories() []Category { return c.doc.Categories }

// Lookup finds an action by name or alias. Matching is exact, as SnowLuma's is.
func (c *Catalog) Lookup(name string) (*Action, bool) {
	a, ok := c.byName[name]
	return a, ok
}

// HasCategory reports whether name is a known category.
func (c *Catalog) HasCategory(name string) bool {
	for _, cat := range c.doc.Categories {
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
	for _, a := range c.doc.Actions {
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
	for _, a := range c.doc.Actions {
		if f.Match(a) && strings.Contains(c.index[a].text, q) {
			out = append(out, a)
		}
	}
	return out
}
