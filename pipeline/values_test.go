package pipeline

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKeysCarryTypedValuesOnACall(t *testing.T) {
	t.Parallel()
	budget := NewKey[int]("budget")
	other := NewKey[int]("budget") // same name, another key
	note := NewKey[string]("note")
	c := &Call{}

	_, ok := budget.Get(c)
	assert.False(t, ok, "nothing set yet")
	budget.Set(c, 3)
	note.Set(c, "kept apart")
	got, ok := budget.Get(c)
	assert.True(t, ok)
	assert.Equal(t, 3, got)
	_, ok = other.Get(c)
	assert.False(t, ok, "keys are told apart by identity, not by name")
	s, _ := note.Get(c)
	assert.Equal(t, "kept apart", s)
	budget.Set(c, 4)
	got, _ = budget.Get(c)
	assert.Equal(t, 4, got, "a later Set replaces the value")
	_, ok = budget.Get(&Call{})
	assert.False(t, ok, "values belong to one Call")
	assert.Equal(t, "budget", budget.String())
}
