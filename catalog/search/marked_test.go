package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAMarkedPatternRunsOnlyWhereItsMarkIs: a pattern whose words the
// request lacks is not run, so it cannot match, even where its regular
// expression alone would.
func TestAMarkedPatternRunsOnlyWhereItsMarkIs(t *testing.T) {
	t.Parallel()
	ps := markedPatterns{mark([]string{"turn"}, `\bturn (on|off)\b|\bflip\b`)}
	for _, tc := range []struct {
		name, q string
		want    bool
	}{
		{"its mark and its pattern", "turn on anon chat", true},
		{"its mark without its pattern", "turn the page", false},
		{"its pattern without its mark", "flip anon chat", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ps.MatchString(tc.q))
		})
	}
	assert.Panics(t, func() { mark([]string{"Turn"}, `turn`) }, "a mark is looked for in a lower-cased request")
	assert.Equal(t, "turn the     ", markedPatterns{mark([]string{"turn"}, `page`)}.blank("turn the page", "turn the page"), "a match is blanked where the mark is in the request")
	assert.Equal(t, "     the page", markedPatterns{mark([]string{"flip"}, `(?i)flip`)}.blank("FLIP the page", "flip the page"), "the mark is looked for in the lower-cased request, the match in the request")
	assert.Equal(t, "flip the page", markedPatterns{mark([]string{"turn"}, `flip`)}.blank("flip the page", "flip the page"), "without its mark a pattern blanks nothing")
}
