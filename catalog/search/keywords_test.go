package search

import (
	"context"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(as []*catalog.Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

func TestSearchKeywords(t *testing.T) {
	t.Parallel()
	c := load(t)
	no := false
	tests := []struct {
		name      string
		query     string
		filter    catalog.Filter
		first     []string // the result starts with these, in order
		contains  []string
		excludes  []string
		wantEmpty bool
	}{
		{"ranks the exact name first", "get_msg", catalog.Filter{}, []string{"get_msg"}, nil, nil, false},
		{"ranks name matches before summary matches", "msg", catalog.Filter{}, []string{"get_msg", "send_msg"}, []string{"get_group_msg_history"}, nil, false},
		{"ranks an exact alias first", "nc_get_rkey", catalog.Filter{}, []string{"get_rkey"}, nil, nil, false},
		{"ignores case and extra spaces", "  GET_MSG  ", catalog.Filter{}, []string{"get_msg"}, nil, nil, false},
		{"translates Chinese to name words", "群 禁言", catalog.Filter{}, []string{"set_group_ban"}, []string{"set_group_whole_ban", "set_group_anonymous_ban", "get_group_shut_list"}, []string{"get_friend_list"}, false},
		{"requires every term", "群 禁言 好友", catalog.Filter{}, nil, nil, nil, true},
		{"finds English synonyms of Chinese summaries", "mute", catalog.Filter{}, nil, []string{"set_group_ban", "set_group_whole_ban"}, nil, false},
		{"maps msg to message", "send message", catalog.Filter{}, nil, []string{"send_msg", "send_group_msg", "send_private_msg"}, nil, false},
		{"maps recall to delete", "recall msg", catalog.Filter{}, []string{"delete_msg"}, nil, nil, false},
		{"applies filters", "群 文件", catalog.Filter{ReadOnly: &no}, nil, []string{"upload_group_file", "delete_group_file"}, []string{"get_group_root_files"}, false},
		{"returns nothing for an empty query", "   ", catalog.Filter{}, nil, nil, nil, true},
		{"reads a number as a parameter, not a word", "mute a member for 10 minutes", catalog.Filter{}, []string{"set_group_ban"}, nil, nil, false},
		{"does so in Chinese too", "禁言某人10分钟", catalog.Filter{}, []string{"set_group_ban"}, nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := names(c.SearchKeywords(context.Background(), tt.query, tt.filter))
			if tt.wantEmpty {
				assert.Empty(t, got)
				return
			}
			assert.NotEmpty(t, got)
			if len(tt.first) > 0 && assert.GreaterOrEqual(t, len(got), len(tt.first)) {
				assert.Equal(t, tt.first, got[:len(tt.first)])
			}
			for _, n := range tt.contains {
				assert.Contains(t, got, n)
			}
			for _, n := range tt.excludes {
				assert.NotContains(t, got, n)
			}
		})
	}
}

// TestKeywordRanksOrderTheResult: past exact names, keywords mode orders
// its hits as the ranking does: first the best of what the request asks
// for, then by score, the best first, where a hit its intent demotes
// counts half its score (liftStrongDemoted).
func TestKeywordRanksOrderTheResult(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, q := range []string{"群", "删除群文件", "list group members", "群文件下载地址"} {
		got := c.SearchKeywords(context.Background(), q, catalog.Filter{})
		require.NotEmpty(t, got, q)
		scores, in := c.scores(q), intentOf(q)
		key := func(a *catalog.Action) float64 {
			w := c.weigh(a, scores[c.at[a]])
			if in.demotion(a, c.index[a], q) > 0 {
				return w / strongDemoted
			}
			return w
		}
		first := in.demotion(got[0], c.index[got[0]], q)
		for _, a := range got {
			assert.GreaterOrEqual(t, in.demotion(a, c.index[a], q), first, "%s: %s asks less than the first, %s", q, a.Name, got[0].Name)
		}
		for i := 2; i < len(got); i++ {
			assert.LessOrEqual(t, key(got[i]), key(got[i-1]), "%s: %s outranks the one before it", q, got[i].Name)
		}
	}
}

func BenchmarkSearchKeywords(b *testing.B) {
	c := load(b)
	b.ReportAllocs()
	for b.Loop() {
		if len(c.SearchKeywords(context.Background(), "群 禁言", catalog.Filter{})) == 0 {
			b.Fatal("no hits")
		}
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	c := load(t)
	yes, no := true, false
	group := "群管理"
	tests := []struct {
		name     string
		query    string
		filter   catalog.Filter
		first    string
		contains []string
		excludes []string
	}{
		{"suggests what matches some terms, not all", "把他踢出去", catalog.Filter{}, "set_group_kick", []string{"set_group_kick_members"}, nil},
		{"weighs a rare term over a common one", "撤回我刚发的那条", catalog.Filter{}, "delete_msg", nil, nil},
		{"honours read_only", "群 成员 踢", catalog.Filter{ReadOnly: &yes}, "", []string{"get_group_member_list"}, []string{"set_group_kick"}},
		{"honours category", "群 信息", catalog.Filter{Category: &group}, "", []string{"set_group_name"}, []string{"get_group_info"}},
		{"honours stream", "下载文件", catalog.Filter{Stream: &no}, "", []string{"download_file"}, []string{"download_file_stream"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := names(c.Suggest(context.Background(), tt.query, tt.filter))
			require.NotEmpty(t, got)
			assert.LessOrEqual(t, len(got), MaxSuggestions)
			if tt.first != "" {
				assert.Equal(t, tt.first, got[0], "%v", got)
			}
			for _, n := range tt.contains {
				assert.Contains(t, got, n)
			}
			for _, n := range tt.excludes {
				assert.NotContains(t, got, n)
			}
			for _, n := range got {
				a, _ := c.cat.Lookup(n)
				assert.True(t, tt.filter.Match(a), n)
			}
		})
	}
	assert.Empty(t, c.Suggest(context.Background(), "frobnicate xyzzy", catalog.Filter{}), "terms the catalog never uses suggest nothing")
	assert.Len(t, c.Suggest(context.Background(), "群", catalog.Filter{}), MaxSuggestions)
}

func TestFindSuggestsOnlyWhenNothingContainsTheQuery(t *testing.T) {
	t.Parallel()
	c := load(t)
	found, suggested := c.Find(context.Background(), "发送群消息", catalog.Filter{})
	assert.Empty(t, found, "no summary holds the phrase")
	assert.Contains(t, names(suggested)[:3], "send_group_msg")
	found, suggested = c.Find(context.Background(), "get_msg", catalog.Filter{})
	assert.Equal(t, "get_msg", found[0].Name)
	assert.Nil(t, suggested)
}

func TestTermsSplitQueriesAsPeopleTypeThem(t *testing.T) {
	t.Parallel()
	c := load(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"发送群消息", []string{"发送", "群", "消息"}},
		{"给群里发一条消息", []string{"群", "发", "消息"}},
		{"群管理员", []string{"群", "管理员"}},
		{"查询在线机型展示", []string{"查询", "在线", "机型展示"}},
		{"list my groups", []string{"list", "groups"}},
		{"Send a message to the group", []string{"send", "message", "group"}},
		{"get_msg", []string{"get_msg"}},
		{"踢him出去 now", []string{"踢"}},
		{"frobnicate 的", nil},
		{"mute a member for 10 minutes", []string{"mute", "member"}},
		{"禁言某人10分钟", []string{"禁言"}},
	}
	for _, tt := range tests {
		ts, _ := c.terms(context.Background(), tt.query)
		var got []string
		for _, x := range ts {
			got = append(got, x.word)
		}
		assert.Equal(t, tt.want, got, tt.query)
	}
}

// TestEverySynonymGroupIsAnchoredInTheCatalog: the table is grown from the
// catalog's words, so each group holds a word of some action's name or
// summary, and no word is in two groups.
func TestEverySynonymGroupIsAnchoredInTheCatalog(t *testing.T) {
	t.Parallel()
	c := load(t).parsed()
	seen := map[string]bool{}
	for _, g := range synonyms {
		assert.True(t, c.corpus.hasAny(g), "%v: none of its words is the catalog's", g)
		for _, w := range g {
			assert.False(t, seen[w], "%s is in two groups", w)
			assert.False(t, fillers[w], "%s is a filler and a synonym", w)
			seen[w] = true
		}
	}
}
