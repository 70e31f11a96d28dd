package e2e

// Filter limits count distinct values (EVT-2): duplicates count once, as
// the filter keeps them, so a list repeating one ID more than 100 times is
// one ID; 101 distinct IDs are refused with the count.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestEventFilterDuplicatesCountOnce(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		groups := make([]int, 101)
		for i := range groups {
			groups[i] = 20001
		}
		users := make([]int, 250)
		for i := range users {
			users[i] = 30001 + i%100
		}
		r := s.call(t, "subscribe_events", map[string]any{"self_id": self,
			"types": []string{"message", "message", "message", "message"}, "group_ids": groups, "user_ids": users}, nil)
		require.False(t, r.IsError, "duplicates count once: %s", r.Text)
		var out struct {
			URI    string `json:"uri"`
			Filter struct {
				Types    []string `json:"types"`
				GroupIDs []int    `json:"group_ids"`
				UserIDs  []int    `json:"user_ids"`
			} `json:"filter"`
		}
		r.decodeResult(t, &out)
		assert.Equal(t, []string{"message"}, out.Filter.Types)
		assert.Equal(t, []int{20001}, out.Filter.GroupIDs)
		assert.Len(t, out.Filter.UserIDs, 100)
		sc.Push(fake.GroupMessage(self, 20001, 30001, "kept"))
		s.awaitEvents(t, out.URI, 1)

		distinct := make([]int, 101)
		for i := range distinct {
			distinct[i] = 20001 + i
		}
		r = s.call(t, "subscribe_events", map[string]any{"self_id": self, "group_ids": distinct}, nil)
		require.True(t, r.IsError)
		assert.Equal(t, "invalid_argument", r.Diag.Kind)
		assert.Contains(t, r.Text, "group_ids holds 101 distinct IDs; at most 100 are allowed")
	})
}
