package budget

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestARecordKeepsTheLatestChargesOnly: after maxRecord charges in a row
// that never find the budget full, the oldest falls out of the record:
// refunding it gives back nothing (never too much), while the latest is
// still given back in full.
func TestARecordKeepsTheLatestChargesOnly(t *testing.T) {
	t.Parallel()
	n := maxRecord + 10
	r := Budget{Burst: n, Every: time.Second} // a debt of n sends stays within span
	var b bucket
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	for id := 1; id <= n; id++ {
		b.charge(uint64(id), at, r) // all at one instant: never full again
	}
	assert.Len(t, b.record, maxRecord)
	full := at.Add(time.Duration(n) * time.Second)
	assert.Equal(t, full, b.tat)
	b.refund(1, r)
	assert.Equal(t, full, b.tat, "a charge folded out of the record is not given back")
	b.refund(uint64(n), r)
	assert.Equal(t, full.Add(-time.Second), b.tat, "the latest is")
	b.refund(uint64(n-maxRecord+5), r)
	assert.Equal(t, full.Add(-2*time.Second), b.tat, "and so is any still on record")
}

// TestABudgetSpentBeyondEmptyStaysWithinItsSpan: a server with pacing off
// records every send, however spent the budget is; the budget then stays
// spent, at most a full refill and one interval ahead, so a paced server
// waits no longer than a full refill for it, and a reader never takes the
// state for one written by a clock set back.
func TestABudgetSpentBeyondEmptyStaysWithinItsSpan(t *testing.T) {
	t.Parallel()
	r := Budget{Burst: 2, Every: time.Hour}
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		sends int
		want  time.Time
	}{
		{"a send into a full budget is one interval", 1, at.Add(time.Hour)},
		{"sends up to the span count each", 3, at.Add(3 * time.Hour)},
		{"sends beyond it leave the budget spent, no further", 10, at.Add(3 * time.Hour)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bucket
			for id := 1; id <= tt.sends; id++ {
				b.charge(uint64(id), at, r)
			}
			assert.Equal(t, tt.want, b.tat)
			assert.LessOrEqual(t, b.delay(at, r), span(r), "a paced send waits at most the span")
		})
	}
}
