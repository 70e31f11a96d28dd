package typo

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistanceCountsTheSlipsOfAHand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, a, b string
		want       int
	}{
		{"the same", "MODE", "MODE", 0},
		{"a letter left out", "TRUSTED_USER", "TRUSTED_USERS", 1},
		{"a letter changed", "MODA", "MODE", 1},
		{"neighbours swapped count once", "ENDPIONT", "ENDPOINT", 1},
		{"a word changed", "SEND_PACING", "SEND_PACE", 3},
		{"from nothing", "", "MODE", 4},
		{"characters, not bytes", "群号", "群名", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Distance(tt.a, tt.b))
			assert.Equal(t, tt.want, Distance(tt.b, tt.a))
		})
	}
}

func TestWithinStopsPastItsLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, a, b string
		want       int
	}{
		{"within the limit it is the distance", "send", "sned", 1},
		{"beyond it reads as limit+1", "abcdef", "uvwxyz", 3},
		{"lengths too far apart are not compared", "a", "abcdef", 3},
		{"exactly at the limit", "abc", "ba", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Within(tt.a, tt.b, 2))
		})
	}
}
