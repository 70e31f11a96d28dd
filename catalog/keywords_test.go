package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func names(as []*Action) []string {
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
		filter    Filter
		first     []string // the result starts with these, in order
		contains  []string
		excludes  []string
		wantEmpty bool
	}{
		{"ranks the exact name first", "get_msg", Filter{}, []string{"get_msg"}, nil, nil, false},
		{"ranks name matches before summary matches", "msg", Filter{}, []string{"get_msg", "send_msg"}, []string{"get_group_msg_history"}, nil, false},
		{"ranks an exact alias first", "nc_get_rkey", Filter{}, []string{"get_rkey"}, nil, nil, false},
		{"ignores case and extra spaces", "  GET_MSG  ", Filter{}, []string{"get_msg"}, nil, nil, false},
		{"translates Chinese to name words", "群 禁言", Filter{}, []string{"set_group_ban", "set_group_whole_ban", "set_group_anonymous_ban"}, nil, []string{"get_friend_list"}, false},
		{"requires every term", "群 禁言 好友", Filter{}, nil, nil, nil, true},
		{"finds English synonyms of Chinese summaries", "mute", Filter{}, nil, []string{"set_group_ban", "set_group_whole_ban"}, nil, false},
		{"maps msg to message", "send message", Filter{}, nil, []string{"send_msg", "send_group_msg", "send_private_msg"}, nil, false},
		{"maps recall to delete", "recall msg", Filter{}, []string{"delete_msg"}, nil, nil, false},
		{"applies filters", "群 文件", Filter{ReadOnly: &no}, nil, []string{"upload_group_file", "delete_group_file"}, []string{"get_group_root_files"}, false},
		{"returns nothing for an empty query", "   ", Filter{}, nil, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := names(c.SearchKeywords(tt.query, tt.filter))
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

func TestKeywordRanksOrderTheResult(t *testing.T) {
	t.Parallel()
	c := load(t)
	got := c.SearchKeywords("群", Filter{})
	last, prev := -1, ""
	sawOther := false
	for _, a := range got {
		r, _ := c.index[a].rank([]string{"群"}, "群")
		assert.GreaterOrEqual(t, r, last, "ranks never go back")
		if r == last && r == rankOther {
			assert.Less(t, orderKey(prev), orderKey(a.Name), "summary-only matches keep catalog order")
			sawOther = true
		}
		if r == last && r != rankOther {
			assert.LessOrEqual(t, len(prev), len(a.Name), "tighter names first")
		}
		last, prev = r, a.Name
	}
	assert.True(t, sawOther)
}

func BenchmarkSearchKeywords(b *testing.B) {
	c, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(c.SearchKeywords("群 禁言", Filter{})) == 0 {
			b.Fatal("no hits")
		}
	}
}
