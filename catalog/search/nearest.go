package search

import (
	"github.com/snowluma/snowluma-mcp/internal/typo"
	"sort"
	"strings"
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
// is closest to, the closest first: those that differ from it only in a
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
			case slipKey(n) == key:
				d = 0
			default:
				if e := typo.Within(name, strings.ToLower(n), limit); e <= limit {
					d = e
				}
			}
			if d >= 0 && n != name {
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
