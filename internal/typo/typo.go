// Package typo measures how far apart two names are in the slips a hand
// makes typing one: a letter left out, added, changed, or two neighbours
// swapped. Every did-you-mean the server gives (a misspelt setting, an
// unknown parameter, an unknown action) ranks its guesses by it, so the
// three agree on what counts as near.
package typo

// Distance is the optimal string alignment distance between a and b,
// counted in characters (runes): insertions, deletions, substitutions and
// swaps of neighbours each count one.
func Distance(a, b string) int { return Within(a, b, -1) }

// Within is Distance, cut short: with limit >= 0 it returns limit+1 as soon
// as the distance must exceed limit (names whose lengths differ by more are
// not compared at all), which keeps a search over many names cheap.
func Within(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); limit >= 0 && (d > limit || -d > limit) {
		return limit + 1
	}
	before, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if limit >= 0 && best > limit {
			return limit + 1
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(rb)]
}
