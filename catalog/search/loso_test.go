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
// them three ways: with the query classifier (classifier.go) weighing
// both the ranking and what the request asks for (Index.intent); with it
// weighing the ranking alone; and with the text alone (the learned field
// kept). The held-out halves are never read. It reports first@1 and
// found@5 as percentages of every tuning request, and the read requests
// given a change first, for each:
//
//	go test -run '^$' -bench LeaveOneSetOut -benchtime 1x ./catalog/search
func BenchmarkLeaveOneSetOut(b *testing.B) {
	cat, err := catalog.Load()
	require.NoError(b, err)
	text := newBM25(cat.Actions(), nil)
	arms := []string{"with the classifier", "the classifier ranking only", "text alone"}
	for range b.N {
		got := make([]figures, len(arms))
		for _, set := range evalSets {
			rows := tuningHalves(b, set.name)
			counts := trainLearned(text, rows)
			priorOnce.Do(func() {})
			prior = trainPrior(rows)
			for arm := range arms {
				x := &Index{cat: cat}
				x.once.Do(func() {
					x.build()
					x.bm25 = newBM25(x.all, learnedField(counts))
					switch arm {
					case 0:
						x.votes = newClassifier(x.all, counts)
					case 1:
						x.votes = newClassifier(x.all, counts)
						x.votes.reads = make([]bool, len(x.all)) // no read share: no word on intent
					default:
						x.votes = newClassifier(x.all, nil)
					}
				})
				intentMemo.last.Store(nil)
				g := measure(b, x, readLines[labelled](b, set.tune), false)
				got[arm].n += g.n
				got[arm].found5 += g.found5
				got[arm].first1 += g.first1
				got[arm].readChangeFirst += g.readChangeFirst
			}
		}
		for arm, name := range arms {
			b.Logf("%s: %v", name, got[arm])
		}
		b.ReportMetric(pct(got[0].first1, got[0].n), "first@1-%")
		b.ReportMetric(pct(got[0].found5, got[0].n), "found@5-%")
		b.ReportMetric(float64(got[0].readChangeFirst), "read-change-first")
		b.ReportMetric(pct(got[2].first1, got[2].n), "text-first@1-%")
		b.ReportMetric(float64(got[2].readChangeFirst), "text-read-change-first")
	}
	prior = parsePrior(readPriorTable)
}
