package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestARequestNamesTheIdsItActsOn: the kinds of id a request names, which
// add to the actions whose params take them.
func TestARequestNamesTheIdsItActsOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query string
		want  entity
	}{
		{"消息998877的详情", entityMessage},
		{"recall message -1559550018", entityMessage},
		{"mute 10001 in group 4455 for ten minutes", entityGroup},
		{"send hi to qq 1212", entityUser},
		{"kick @Bob from 群123456", entityGroup | entityUser},
		{"list my groups", 0},
		{"set the group name to 2024", 0},
	} {
		t.Run(tc.query, func(t *testing.T) {
			assert.Equal(t, tc.want, entitiesOf(tc.query))
		})
	}
	c := load(t)
	a, ok := c.cat.Lookup("get_msg")
	if assert.True(t, ok) {
		assert.Equal(t, entityMessage, readsOf(a), "get_msg reads a message id")
	}
}
