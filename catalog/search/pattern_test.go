package search

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryPatternCompiles: each of the search's patterns, compiled only
// when a search first uses it, is a valid regular expression.
func TestEveryPatternCompiles(t *testing.T) {
	t.Parallel()
	require.Greater(t, len(patterns), 50, "every pattern registers itself")
	for _, p := range patterns {
		_, err := regexp.Compile(p.expr)
		assert.NoError(t, err, p.expr)
	}
}

// TestAPatternIsCompiledOnItsFirstUse: a pattern made is not compiled
// until it is used, and then once.
func TestAPatternIsCompiledOnItsFirstUse(t *testing.T) {
	t.Parallel()
	p := &pattern{expr: `a+b`}
	assert.Nil(t, p.re)
	assert.True(t, p.MatchString("xaab"))
	first := p.re
	require.NotNil(t, first)
	assert.Equal(t, "x-", p.ReplaceAllString("xaab", "-"))
	assert.Same(t, first, p.re)
}
