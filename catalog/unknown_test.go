package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearestBoundsWhatItCompares(t *testing.T) {
	t.Parallel()
	huge := make([]byte, 10000)
	for i := range huge {
		huge[i] = 'a'
	}
	assert.Empty(t, NearestParams(string(huge), []string{"card", "aaaa"}))
	assert.Equal(t, []string{"group_id"}, NearestParams("groupid", []string{"group_id", "user_id"}))
	assert.Empty(t, NearestParams("zz", []string{"group_id"}))
}
