package budget

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoWaitIsNegativeOrOverflows is a property over extreme times and
// rates: whatever a budget's state holds (a time in year 1 or 9999, a
// refill of a nanosecond or of centuries, a burst of one or of a
// billion) and whenever it is asked, the wait it gives, rounded as
// retry_after_ms is, is never negative and never wraps round. Such a
// state once gave retry_after_ms -9223372036853, and an agent retried at
// once.
func TestNoWaitIsNegativeOrOverflows(t *testing.T) {
	t.Parallel()
	times := []time.Time{
		{}, time.Unix(0, 0), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Unix(math.MaxInt64/2, 0), time.Unix(math.MinInt64/2, 0),
	}
	everies := []time.Duration{1, time.Millisecond, time.Second, 24 * time.Hour, math.MaxInt64 / 3, math.MaxInt64}
	bursts := []int{1, 2, 6, 1 << 30, math.MaxInt32}
	rng := rand.New(rand.NewPCG(37, 37))
	for range 20000 {
		b := &bucket{tat: pick(rng, times).Add(time.Duration(rng.Int64()))}
		now := pick(rng, times).Add(time.Duration(rng.Int64N(int64(time.Hour))))
		r := Budget{Burst: pick(rng, bursts), Every: pick(rng, everies)}
		d := b.delay(now, r)
		require.GreaterOrEqual(t, d, time.Duration(0), "delay of tat %v at %v under %+v", b.tat, now, r)
		c := Ceil(d)
		if d <= math.MaxInt64/time.Millisecond*time.Millisecond {
			require.GreaterOrEqual(t, c, d, "Ceil never reports a wait short: %v", d)
		} else {
			require.Equal(t, math.MaxInt64/time.Millisecond*time.Millisecond, c, "a wait too long to round up saturates")
		}
		require.GreaterOrEqual(t, c.Milliseconds(), int64(0), "retry_after_ms of %v", d)
		s := b.state("x", now, r)
		require.GreaterOrEqual(t, s.NextFreeMS, int64(0))
		require.GreaterOrEqual(t, s.Available, 0)
	}
}

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func TestCeilRoundsUpWithinTheRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		d    time.Duration
		want time.Duration
	}{
		{"a negative wait is none", -time.Second, 0},
		{"a part of a millisecond is a whole one", time.Microsecond, time.Millisecond},
		{"a whole millisecond stays", 5 * time.Millisecond, 5 * time.Millisecond},
		{"the longest Duration does not wrap round", math.MaxInt64, math.MaxInt64 / time.Millisecond * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Ceil(tt.d))
		})
	}
}
