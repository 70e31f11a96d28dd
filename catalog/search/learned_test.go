package search

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// learnedMinRequests is how many of an action's tuning requests must hold
// a term before it is learned: a term one request holds says more of that
// request (its payload, its writer) than of how people name the action.
const learnedMinRequests = 2

// trainLearned learns, from labelled requests read by x (an index without
// learned terms, so that what was learned never reads the requests it is
// learned from), each action's terms held by at least learnedMinRequests
// of the requests it serves.
func trainLearned(x *bm25, rows []labelled) map[string][]string {
	count := map[string]map[string]int{}
	for _, r := range rows {
		terms := distinct(x.requestTerms(r.Q))
		for _, a := range r.Accept {
			if count[a] == nil {
				count[a] = map[string]int{}
			}
			for _, t := range terms {
				count[a][t]++
			}
		}
	}
	out := map[string][]string{}
	for a, terms := range count {
		for t, n := range terms {
			if n >= learnedMinRequests && !strings.ContainsAny(t, " \t\n") {
				out[a] = append(out[a], t)
			}
		}
		sort.Strings(out[a])
	}
	return out
}

// learnedFile is the table as learned.txt holds it: actions in order.
func learnedFile(m map[string][]string) string {
	names := make([]string, 0, len(m))
	for a := range m {
		names = append(names, a)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, a := range names {
		if len(m[a]) > 0 {
			b.WriteString(a + "\t" + strings.Join(m[a], " ") + "\n")
		}
	}
	return b.String()
}

// tuningHalves are every labelled set's tuning half but except's, never
// a held-out one.
func tuningHalves(t *testing.T, except string) []labelled {
	var rows []labelled
	for _, set := range evalSets {
		require.NotContains(t, set.tune, "heldout")
		if set.name != except {
			rows = append(rows, readLines[labelled](t, set.tune)...)
		}
	}
	return rows
}

// TestTheLearnedTermsAreTrainedOnTheTuningHalves: learned.txt is what
// training on the tuning halves gives, read as a search reads them.
// LEARN_WRITE=1 writes it.
func TestTheLearnedTermsAreTrainedOnTheTuningHalves(t *testing.T) {
	x := load(t)
	assertTrained(t, "learned.txt", "LEARN_WRITE", learnedFile(trainLearned(newBM25(x.parsed().all, nil), tuningHalves(t, ""))))
}

// assertTrained holds a trained table's file to what training gives
// (want); with the environment variable write set, it writes the file.
func assertTrained(t *testing.T, file, write, want string) {
	t.Helper()
	if os.Getenv(write) != "" {
		require.NoError(t, os.WriteFile(file, []byte(want), 0o644))
	}
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, want, string(got), "%s is stale: %s=1 go test -run %s ./catalog/search", file, write, t.Name())
}

// TestLearnedTermsNameWhatPeopleSay: a request whose words only the
// requests people wrote hold (病毒 and 安装包 for a file in a group's files) ranks its action
// first with the learned field, and does not without it.
func TestLearnedTermsNameWhatPeopleSay(t *testing.T) {
	t.Parallel()
	with := load(t)
	without := &Index{cat: with.cat}
	without.once.Do(func() {
		without.build()
		without.bm25 = newBM25(without.all, nil)
	})
	q := "那个病毒安装包删掉吧，群 4455"
	got := names(with.Suggest(context.Background(), q, catalog.Filter{}))
	require.NotEmpty(t, got)
	assert.Equal(t, "delete_group_file", got[0], "%v", got)
	got = names(without.Suggest(context.Background(), q, catalog.Filter{}))
	require.NotEmpty(t, got)
	assert.NotEqual(t, "delete_group_file", got[0], "the learned field, not the others, ranks it: %v", got)
}
