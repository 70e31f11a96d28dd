package search

import (
	"context"

	"sort"
	"strings"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/typo"
)

// A model that misremembers an action's name is usually one slip away:
// a leading underscore missed or added (send_group_notice for
// _send_group_notice), a plural for a singular, get_ for set_, a letter
// or two. Nearest turns such a slip into the name it meant, so an unknown
// name ends in a did-you-mean instead of a search.

// maxNearest bounds Nearest's answer; maxSlip is the most single-letter
// edits a name may be from the one meant; maxNameBytes is the longest
// name Nearest compares (no catalog name comes close).
const (
	maxNearest   = 3
	maxSlip      = 2
	maxNameBytes = 64
)

// Nearest returns up to three catalog names and aliases the unknown name
// is closest to, the closest first: the one it is off only in case or
// blanks (SEND_GROUP_MSG), those that differ from it only in a
// leading underscore, a plural or get_/set_ (any of these at once), then
// those a few letters away (edit distance), in catalog order among
// equals. It returns nothing for a name that is close to none.
func (c *Index) Nearest(name string) []string {
	c = c.parsed()
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" || len(name) > maxNameBytes {
		return nil
	}
	key := slipKey(name)
	limit := min(maxSlip, max(1, len(name)/5))
	type near struct {
		name string
		dist int
		at   int
	}
	var out []near
	at := 0
	for _, a := range c.all {
		for _, n := range append([]string{a.Name}, a.Aliases...) {
			at++
			d := -1
			switch {
			case strings.ToLower(n) == name:
				out = append(out, near{n, -1, at}) // off only in case or blanks: the name meant, first
				continue
			case slipKey(n) == key:
				d = 0
			default:
				if e := typo.Within(name, strings.ToLower(n), limit); e <= limit {
					d = e
				}
			}
			if d >= 0 {
				out = append(out, near{n, d, at})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].dist < out[j].dist })
	names := make([]string, 0, min(maxNearest, len(out)))
	for _, n := range out[:min(maxNearest, len(out))] {
		names = append(names, n.name)
	}
	return names
}

// slipKey is a name with the slips Nearest forgives undone: no leading
// underscores, each _-separated word without a plural s, and get_ or set_
// at the start read as one.
func slipKey(name string) string {
	ws := strings.Split(strings.TrimLeft(strings.ToLower(name), "_"), "_")
	for i, w := range ws {
		if s, ok := singular(w); ok {
			ws[i] = s
		}
	}
	if len(ws) > 1 && (ws[0] == "get" || ws[0] == "set") {
		ws[0] = "get/set"
	}
	return strings.Join(ws, "_")
}

// maxOffer bounds Offer's answer.
const maxOffer = 3

// Offer returns up to three real actions an unknown action name may mean,
// the likeliest first: the action it names off only in case or blanks
// (SEND_GROUP_MSG, "send_group_msg "), then the names a slip or two away
// (Nearest), then what the name's words find through the ranked search
// (its words split at _ . - and case changes, the catalog's abbreviations
// written out: send_private_text finds send_private_msg, withdraw_msg
// delete_msg). It returns nothing for a name whose words find nothing.
func (c *Index) Offer(name string) []string {
	c = c.parsed()
	if len(name) > maxNameBytes*4 {
		return nil
	}
	out := make([]string, 0, maxOffer)
	add := func(n string) {
		if len(out) < maxOffer && !contains(out, n) {
			out = append(out, n)
		}
	}
	for _, n := range c.Nearest(name) {
		add(n)
	}
	ws := nameWords(strings.TrimSpace(name))
	for i, w := range ws {
		if strings.EqualFold(w, "me") {
			ws[i] = "self" // getMe: the account's own
		}
	}
	words := strings.Join(ws, " ")
	terms := c.bm25.termsFor(words, c.intent(words))
	if len(terms) == 0 {
		return out
	}
	for _, a := range c.Suggest(context.Background(), words, catalog.Filter{}) {
		if n := c.bm25.matched(terms, c.at[a]); 2*n >= len(terms) {
			add(a.Name)
		}
	}
	return out
}
