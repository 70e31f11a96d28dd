package catalog

import (
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
func (c *Catalog) Nearest(name string) []string {
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
	for _, a := range c.doc.Actions {
		for _, n := range append([]string{a.Name}, a.Aliases...) {
			at++
			d := -1
			switch {
			case slipKey(n) == key:
				d = 0
			default:
				if e := editDistance(name, strings.ToLower(n), limit); e <= limit {
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

// editDistance is the edit distance of a and b, a swap of two letters
// side by side counting as one edit (the optimal string alignment
// distance), or limit+1 as soon as it must exceed limit (names differing in
// length by more are not compared at all).
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	before, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(b)]
}
