package search

import (
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/require"
)

// BenchmarkLeaveOneSetOut measures how the trained tables serve a writer
// they never saw, as a new user is: for each labelled set in turn, the
// counts (learned.txt) and the read prior are trained on every other
// set's tuning half, and the left-out set's tuning half is ranked with
// them, once with the query classifier (classifier.go) and once with the
// text alone (the learned field kept). The held-out halves are never
// read. It reports first@1 and found@5 as percentages of every tuning
// request, and the read requests given a change first, for both:
//
//	go test -run '^$' -bench LeaveOneSetOut -benchtime 1x ./catalog/search
func BenchmarkLeaveOneSetOut(b *testing.B) {
	cat, err := catalog.Load()
	require.NoError(b, err)
	text := newBM25(cat.Actions(), nil)
	for range b.N {
		var with, without figures
		for _, set := range evalSets {
			rows := tuningHalves(b, set.name)
			counts := trainLearned(text, rows)
			priorOnce.Do(func() {})
			prior = trainPrior(rows)
			for arm, f := range map[bool]*figures{true: &with, false: &without} {
				x := &Index{cat: cat}
				x.once.Do(func() {
					x.build()
					x.bm25 = newBM25(x.all, learnedField(counts))
					if !arm {
						x.votes = newClassifier(x.all, nil)
					} else {
						x.votes = newClassifier(x.all, counts)
					}
				})
				intentMemo.last.Store(nil)
				g := measure(b, x, readLines[labelled](b, set.tune), false)
				f.n += g.n
				f.found5 += g.found5
				f.first1 += g.first1
				f.readChangeFirst += g.readChangeFirst
			}
		}
		b.Logf("with the classifier: %v", with)
		b.Logf("text alone: %v", without)
		b.ReportMetric(pct(with.first1, with.n), "first@1-%")
		b.ReportMetric(pct(with.found5, with.n), "found@5-%")
		b.ReportMetric(float64(with.readChangeFirst), "read-change-first")
		b.ReportMetric(pct(without.first1, without.n), "text-first@1-%")
		b.ReportMetric(float64(without.readChangeFirst), "text-read-change-first")
	}
	prior = parsePrior(readPriorTable)
}
