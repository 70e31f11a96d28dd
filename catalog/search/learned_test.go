package search

import (
	"context"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trainLearned counts, from labelled requests read by x (an index
// without learned terms, so that what was learned never reads the
// requests it is learned from), how many of each action's requests hold
// each term.
func trainLearned(x *bm25, rows []labelled) map[string]map[string]int {
	count := map[string]map[string]int{}
	for _, r := range rows {
		terms := distinct(x.requestTerms(r.Q))
		for _, a := range r.Accept {
			if count[a] == nil {
				count[a] = map[string]int{}
			}
			count[a][requestsKey]++
			for _, t := range terms {
				if !strings.ContainsAny(t, " \t\n:") {
					count[a][t]++
				}
			}
		}
	}
	return count
}

// learnedFile is the table as learned.txt holds it: actions in order,
// each with its terms in order, each term with its count.
func learnedFile(m map[string]map[string]int) string {
	names := make([]string, 0, len(m))
	for a := range m {
		names = append(names, a)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, a := range names {
		terms := make([]string, 0, len(m[a]))
		for t := range m[a] {
			terms = append(terms, t)
		}
		if len(terms) == 0 {
			continue
		}
		sort.Strings(terms)
		b.WriteString(a + "\t")
		for i, t := range terms {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t + ":" + strconv.Itoa(m[a][t]))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// tuningHalves are every labelled set's tuning half but except's, never
// a held-out one.
func tuningHalves(t testing.TB, except string) []labelled {
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
	with, without := textAlone(t), textAlone(t)
	without.parsed().bm25 = newBM25(without.all, nil)
	q := "那个病毒安装包删掉吧，群 4455"
	got := names(with.Suggest(context.Background(), q, catalog.Filter{}))
	require.NotEmpty(t, got)
	assert.Equal(t, "delete_group_file", got[0], "%v", got)
	got = names(without.Suggest(context.Background(), q, catalog.Filter{}))
	require.NotEmpty(t, got)
	assert.NotEqual(t, "delete_group_file", got[0], "the learned field, not the others, ranks it: %v", got)
}
