package search

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unknownHan is a query of n Han characters that the catalog holds one
// by one but rarely side by side and that no vocabulary word holds: its
// other distinct Han characters in code point order, repeated. It is the
// worst case of segmentation, one long run no vocabulary word covers.
func unknownHan(c *Index, n int) string {
	inVocabulary := map[rune]bool{}
	for w := range segmentWords {
		for _, r := range w {
			inVocabulary[r] = true
		}
	}
	seen := map[rune]bool{}
	for _, r := range c.parsed().corpus.text {
		if unicode.Is(unicode.Han, r) && !inVocabulary[r] {
			seen[r] = true
		}
	}
	rs := make([]rune, 0, len(seen))
	for r := range seen {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(rs[i%len(rs)])
	}
	return b.String()
}

func BenchmarkSearchLongQuery(b *testing.B) {
	c := load(b)
	// 4KiB is the longest query search_actions takes; the others are in
	// characters, for comparison with the figures of issue 43.
	sizes := map[string]int{"4KiB": MaxQueryBytes / len("群"), "chars=1000": 1000, "chars=4096": 4096}
	for _, name := range []string{"4KiB", "chars=1000", "chars=4096"} {
		q := unknownHan(c, sizes[name])
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				c.SearchKeywords(context.Background(), q, catalog.Filter{})
			}
		})
	}
}

// BenchmarkSearchDefault is one default-mode search as a first call makes
// it: a phrase no summary holds, so it is ranked as well.
func BenchmarkSearchDefault(b *testing.B) {
	c := load(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, s := c.Find(context.Background(), "发送群消息", catalog.Filter{}); len(s) == 0 {
			b.Fatal("no suggestions")
		}
	}
}

// TestHanIndexFindsTheLongestPieceTheCatalogHolds holds the index to what
// it replaced, a search of the catalog's text for every prefix: for pieces
// of the catalog's own Chinese (found whole), the same pieces with a
// character the catalog never uses after them, and the worst-case query.
func TestHanIndexFindsTheLongestPieceTheCatalogHolds(t *testing.T) {
	t.Parallel()
	c := load(t).parsed()
	brute := func(q []rune) int {
		k := len(q)
		for ; k > 0 && !strings.Contains(c.corpus.text, string(q[:k])); k-- {
		}
		return k
	}
	var queries [][]rune
	for _, a := range c.cat.Actions()[:40] {
		rs := []rune(a.Summary)
		for i := range rs {
			for j := i + 1; j <= min(len(rs), i+12); j++ {
				if isHan(string(rs[i:j])) {
					queries = append(queries, rs[i:j], append(append([]rune{}, rs[i:j]...), '龘'))
				}
			}
		}
	}
	queries = append(queries, []rune(unknownHan(c, 300)), []rune("龘群"), []rune("群龘"))
	require.Greater(t, len(queries), 1000)
	for _, q := range queries {
		assert.Equal(t, brute(q), c.han.longest(q), string(q))
	}
}

func TestTermsOfTheWorstCaseQueryAreTheCatalogsPieces(t *testing.T) {
	t.Parallel()
	c := load(t)
	ts, _ := c.terms(context.Background(), unknownHan(c, 4096))
	require.NotEmpty(t, ts)
	for _, x := range ts {
		assert.GreaterOrEqual(t, len([]rune(x.word)), 2, "a lone unknown character is dropped")
		assert.Contains(t, c.corpus.text, x.word)
	}
}

func TestACancelledSearchFindsNothing(t *testing.T) {
	t.Parallel()
	c := load(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Empty(t, c.SearchKeywords(ctx, "群 禁言", catalog.Filter{}))
	assert.Empty(t, c.Suggest(ctx, "发送群消息", catalog.Filter{}))
}

// searchMix is a realistic mix of first calls, none of them a labelled
// request: short commands and questions in both languages, and long
// requests carrying what they send (quotes, URLs, numbers, @mentions).
var searchMix = []string{
	"发送群消息",
	"list my groups",
	"群里有谁",
	"撤回消息",
	"mute a member",
	"who am I logged in as",
	"给群 24681357 发一条消息：今晚八点开会，大家记得带电脑，会议链接 https://meeting.example.com/room/42 别迟到",
	"please tell group 13572468 that the server maintenance window moved to Saturday 03:00 and ask @ops to confirm",
	"send \"the build is green, release notes at https://example.com/notes/1.2.3\" to my friend 10001 in private",
	"把 @张三 踢出群 88776655，理由：连续三天在群里发广告，已经警告过两次了",
	"look up the profile of qq 1234567 and tell me their nickname and level",
	"帮我看看群 5556667 最近都聊了些什么，特别是关于发布的消息",
}

// BenchmarkSearchMix is one default-mode search (search_actions as a first
// call makes it) over the mix, a request per operation in turn; it also
// reports the median of the requests' own times.
func BenchmarkSearchMix(b *testing.B) {
	c := load(b)
	ctx := context.Background()
	spent := make([]time.Duration, len(searchMix))
	runs := make([]int, len(searchMix))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := i % len(searchMix)
		t0 := time.Now()
		c.Find(ctx, searchMix[k], catalog.Filter{})
		spent[k] += time.Since(t0)
		runs[k]++
		i++
	}
	per := make([]float64, 0, len(searchMix))
	for k := range searchMix {
		if runs[k] > 0 {
			per = append(per, float64(spent[k].Nanoseconds())/float64(runs[k]))
		}
	}
	sort.Float64s(per)
	if len(per) > 0 {
		b.ReportMetric(per[len(per)/2], "median-ns/request")
	}
}
