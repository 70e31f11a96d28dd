package search

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// priorMinCount is how many tuning requests must hold a feature before the
// prior weighs it: rarer ones say more of their writer than of the
// language.
const priorMinCount = 3

// trainPrior learns the read prior from labelled requests: each feature's
// log-odds of appearing in a request that only reads against one that
// writes, smoothed by half a request.
func trainPrior(rows []labelled) *priorModel {
	var n [2]float64
	count := map[string]*[2]float64{}
	for _, r := range rows {
		k := 0
		if r.Read {
			k = 1
		}
		n[k]++
		for _, f := range priorFeatures(r.Q) {
			if count[f] == nil {
				count[f] = &[2]float64{}
			}
			count[f][k]++
		}
	}
	m := &priorModel{base: round2(math.Log(n[1] / n[0])), weights: map[string]float64{}}
	for f, c := range count {
		if c[0]+c[1] < priorMinCount {
			continue
		}
		w := math.Log((c[1]+0.5)/(n[1]+1)) - math.Log((c[0]+0.5)/(n[0]+1))
		if w = round2(w); w != 0 {
			m.weights[f] = w
		}
	}
	return m
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// table is m as readprior.tsv holds it, features in order.
func (m *priorModel) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "prior\t%g\n", m.base)
	fs := make([]string, 0, len(m.weights))
	for f := range m.weights {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	for _, f := range fs {
		fmt.Fprintf(&b, "%s\t%g\n", f, m.weights[f])
	}
	return b.String()
}

// TestTheReadPriorIsTrainedOnTheTuningHalves holds readprior.tsv to what
// training on the tuning halves gives; PRIOR_WRITE=1 writes it.
func TestTheReadPriorIsTrainedOnTheTuningHalves(t *testing.T) {
	assertTrained(t, "readprior.tsv", "PRIOR_WRITE", trainPrior(tuningHalves(t, "")).table())
}

// TestARequestWithNoCueReadsWhereThePriorSaysSo: a request the cue lists
// find nothing in is a read where the prior finds reading likelier, and
// its first suggestion is then a read; where the prior finds writing
// likelier, it keeps no intent.
func TestARequestWithNoCueReadsWhereThePriorSaysSo(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, tc := range []struct {
		query string
		in    intent
	}{
		{"group 4455 album photos", intentRead},
		{"his group card in 4455, user 10002", intentRead},
		{"让群9090可以被别人搜到", intentNone},
	} {
		t.Run(tc.query, func(t *testing.T) {
			require.Equal(t, intentNone, readIntent(tc.query), "the cue lists find no cue")
			assert.Equal(t, tc.in, intentOf(tc.query))
			if tc.in == intentRead {
				got := c.Suggest(context.Background(), tc.query, catalog.Filter{})
				require.NotEmpty(t, got)
				assert.True(t, got[0].ReadOnly, "%v", names(got))
			}
		})
	}
}

// TestThePriorOverrulesACueToChangeOnlyWhereReadingIsOverwhelming: a read
// whose cue word asks for a change (删好友之前: what comes later) reads
// where the prior finds reading overwhelmingly likelier; a change the
// prior finds likelier to write keeps its cue.
func TestThePriorOverrulesACueToChangeOnlyWhereReadingIsOverwhelming(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, tc := range []struct {
		query    string
		cue, in  intent
		readOnly bool
	}{
		{"删好友之前看看他的资料，QQ 10001", intentRemove, intentRead, true},
		{"禁言 10001 十分钟，群 4455", intentChange, intentChange, false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			require.Equal(t, tc.cue, readIntent(tc.query), "what the cue lists read")
			assert.Equal(t, tc.in, intentOf(tc.query))
			assert.Equal(t, tc.in == intentRead, readPrior().odds(tc.query) > vetoOdds)
			got := c.Suggest(context.Background(), tc.query, catalog.Filter{})
			require.NotEmpty(t, got)
			assert.Equal(t, tc.readOnly, got[0].ReadOnly, "%v", names(got))
		})
	}
}
