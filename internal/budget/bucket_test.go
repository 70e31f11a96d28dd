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
	r := Budget{Burst: 1, Every: time.Second}
	var b bucket
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	n := maxRecord + 10
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
