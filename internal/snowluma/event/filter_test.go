package event

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func decoded(t *testing.T, frame string) *Event {
	t.Helper()
	e, err := Decode([]byte(frame))
	require.NoError(t, err)
	return e
}

func TestFilterMatch(t *testing.T) {
	cases := []struct {
		name   string
		filter Filter
		frame  string
		want   bool
	}{
		{"no filter passes a message", Filter{SelfID: 10001}, groupMessage, true},
		{"no filter passes a request", Filter{SelfID: 10001}, friendReq, true},
		{"meta never passes", Filter{SelfID: 10001}, heartbeat, false},
		{"message type includes message_sent", Filter{Types: []Kind{KindMessage}}, sentMessage, true},
		{"notice type excludes messages", Filter{Types: []Kind{KindNotice}}, groupMessage, false},
		{"group filter passes its group", Filter{GroupIDs: []int64{5, 123456789}}, groupMessage, true},
		{"group filter excludes other groups", Filter{GroupIDs: []int64{5}}, groupMessage, false},
		{"group filter excludes events without a group", Filter{GroupIDs: []int64{123456789}}, privMessage, false},
		{"user filter passes its user", Filter{UserIDs: []int64{10002}}, privMessage, true},
		{"user filter excludes other users", Filter{UserIDs: []int64{9}}, privMessage, false},
		{"group and user AND together", Filter{GroupIDs: []int64{123456789}, UserIDs: []int64{9}}, groupMessage, false},
		{"group and user both matching", Filter{GroupIDs: []int64{123456789}, UserIDs: []int64{10002}}, recall, true},
		{"types and groups AND together", Filter{Types: []Kind{KindRequest}, GroupIDs: []int64{123456789}}, recall, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.filter.Normalize().Match(decoded(t, c.frame)))
		})
	}
}

func TestFilterNormalizeSortsAndDeduplicates(t *testing.T) {
	f := Filter{SelfID: 1, Types: []Kind{KindRequest, KindMessage, KindRequest}, GroupIDs: []int64{3, 1, 3}}.Normalize()
	assert.Equal(t, []Kind{KindMessage, KindRequest}, f.Types)
	assert.Equal(t, []int64{1, 3}, f.GroupIDs)
	assert.Nil(t, f.UserIDs)
	assert.Equal(t, Kinds, Filter{}.Normalize().Types, "no types means all three")
}

func TestFilterCheck(t *testing.T) {
	many := make([]int64, 101)
	for i := range many {
		many[i] = int64(i + 1)
	}
	dupes := make([]int64, 150)
	for i := range dupes {
		dupes[i] = int64(i%100 + 1)
	}
	cases := []struct {
		name   string
		filter Filter
		err    string
	}{
		{"a plain account is fine", Filter{SelfID: 1}, ""},
		{"self_id must be positive", Filter{SelfID: 0}, "self_id"},
		{"unknown type", Filter{SelfID: 1, Types: []Kind{"meta"}}, "types"},
		{"non-positive group", Filter{SelfID: 1, GroupIDs: []int64{0}}, "group_ids"},
		{"negative user", Filter{SelfID: 1, UserIDs: []int64{-4}}, "user_ids"},
		{"101 distinct ids", Filter{SelfID: 1, UserIDs: many}, "101 distinct"},
		{"100 distinct ids with duplicates", Filter{SelfID: 1, GroupIDs: dupes}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.filter.Check()
			if c.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}
