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
}
