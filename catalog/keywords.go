package catalog

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// expansions maps every synonym (lower case) to its whole group.
var expansions = func() map[string][]string {
	m := map[string][]string{}
	for _, group := range synonyms {
		for _, w := range group {
			m[w] = group
		}
	}
	return m
}()

// Ranks of a keyword match, best first.
const (
	rankExact    = iota // the query or a term is the action's name or alias
	rankAllName         // every term matches the name or an alias
	rankSomeName        // some term matches the name or an alias
	rankOther           // the terms match only the summary or category
)

// SearchKeywords splits query into terms (see terms.go), keeps actions
// passing f that match every term (a term matches when it or one of its
// synonyms occurs in the name, an alias, the summary or the category), and
// ranks exact names and aliases first, then name matches (shorter names
// first: they match more tightly), then the rest in catalog order.
func (c *Catalog) SearchKeywords(query string, f Filter) []*Action {
	ts, whole := c.terms(query)
	var hits []hit
	for _, h := range c.match(ts, whole, f) {
		if h.found == len(ts) {
			hits = append(hits, h)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].rank != hits[j].rank {
			return hits[i].rank < hits[j].rank
		}
		return hits[i].rank != rankOther && len(hits[i].a.Name) < len(hits[j].a.Name)
	})
	return actionsOf(hits, len(hits))
}

// MaxSuggestions bounds Suggest.
const MaxSuggestions = 10

// Suggest ranks the actions passing f that match any of the query's terms
// (unlike SearchKeywords, not all): exact names first, then by the weight
// of the terms they match, a term weighing more the fewer actions it
// matches in the whole catalog ("撤回" tells more than "发") and more again
// in a name, then shorter names; at most MaxSuggestions. It is what a
// search that found nothing offers instead.
func (c *Catalog) Suggest(query string, f Filter) []*Action {
	ts, whole := c.terms(query)
	var hits []hit
	for _, h := range c.match(ts, whole, f) {
		if h.found > 0 {
			hits = append(hits, h)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		switch {
		case (a.rank == rankExact) != (b.rank == rankExact):
			return a.rank == rankExact
		case a.weight != b.weight:
			return a.weight > b.weight
		}
		return len(a.a.Name) < len(b.a.Name)
	})
	return actionsOf(hits, MaxSuggestions)
}

// hit is how an action matched a query's terms.
type hit struct {
	a            *Action
	found, named int     // terms matched anywhere, and in the name or an alias
	weight       float64 // the terms' weights (see Suggest)
	rank         int
}

// terms are the query's terms and the query as one word (for exact names).
func (c *Catalog) terms(query string) ([]term, string) {
	c = c.parsed()
	return terms(query, c.corpus), strings.ToLower(strings.TrimSpace(query))
}

// match returns how each action passing f matches ts, in catalog order.
func (c *Catalog) match(ts []term, whole string, f Filter) []hit {
	if len(ts) == 0 {
		return nil
	}
	// A term's weight: log(actions / actions it matches).
	all := c.parsed().doc.Actions
	for i := range ts {
		n := 0
		for _, a := range all {
			if c.index[a].hasAny(ts[i].words) {
				n++
			}
		}
		ts[i].weight = math.Log(float64(len(all)+1) / float64(n+1))
	}
	var out []hit
	for _, a := range all {
		if f.Match(a) {
			out = append(out, c.index[a].match(a, ts, whole))
		}
	}
	return out
}

// hasAny reports whether any of ws occurs.
func (h haystack) hasAny(ws []string) bool {
	for _, w := range ws {
		if h.has(w) {
			return true
		}
	}
	return false
}

func actionsOf(hits []hit, limit int) []*Action {
	out := make([]*Action, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.a)
	}
	return out
}

// haystack is searchable text, lower-cased once at load: an action's, or
// the whole catalog's (Catalog.corpus).
type haystack struct {
	names []string        // name and aliases
	text  string          // name, aliases, summary, category
	words map[string]bool // the text's English words (names split at _), with their singulars
}

func newHaystack(a *Action) haystack {
	names := append([]string{strings.ToLower(a.Name)}, lowerAll(a.Aliases)...)
	return haystackOf(names, strings.ToLower(strings.Join(append(names, a.Summary, a.Category), "\n")))
}

func haystackOf(names []string, text string) haystack {
	h := haystack{names: names, text: text, words: map[string]bool{}}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))) }) {
		h.words[w] = true
		if s, ok := singular(w); ok {
			h.words[s] = true
		}
	}
	return h
}

func lowerAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strings.ToLower(x)
	}
	return out
}

// has reports whether w occurs: an English word as a whole word (so "who"
// does not match "whole"), anything else (Chinese, a name with _) as text.
func (h haystack) has(w string) bool {
	if isWord(w) {
		return h.words[w]
	}
	return strings.Contains(h.text, w)
}

// isWord reports whether w is one plain English word.
func isWord(w string) bool {
	for _, r := range w {
		if r >= unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return w != ""
}

// match reads how the action matches ts.
func (h haystack) match(a *Action, ts []term, whole string) hit {
	out := hit{a: a}
	exact := false
	for _, n := range h.names {
		if n == whole {
			exact = true
		}
	}
	for _, t := range ts {
		found, named := h.hasAny(t.words), false
		for _, w := range t.words {
			for _, n := range h.names {
				if n == t.word {
					exact = true
				}
				if nameHas(n, w) {
					named = true
				}
			}
		}
		if found {
			out.found++
			out.weight += t.weight
		}
		if named {
			out.named++
			out.weight += t.weight / 2
		}
	}
	switch {
	case exact:
		out.rank = rankExact
	case out.named == len(ts):
		out.rank = rankAllName
	case out.named > 0:
		out.rank = rankSomeName
	default:
		out.rank = rankOther
	}
	return out
}

// nameHas reports whether an action name holds w: one of its _-separated
// words, or a longer piece of it.
func nameHas(name, w string) bool {
	if !isWord(w) {
		return strings.Contains(name, w)
	}
	for _, part := range strings.Split(name, "_") {
		if part == w {
			return true
		}
		if s, ok := singular(part); ok && s == w {
			return true
		}
	}
	return false
}
