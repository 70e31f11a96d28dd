package e2e

// The catalog tools (BASE-2, CAT-3, CAT-5): list_actions with filters and
// paging, get_action by name and alias, search_actions substring matching,
// list_categories. They need no endpoint, so docs mode serves them.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const catalogSize = 177

type entry struct {
	Name     string   `json:"name"`
	Category string   `json:"category"`
	Summary  string   `json:"summary"`
	Aliases  []string `json:"aliases"`
	ReadOnly bool     `json:"readOnly"`
	Stream   bool     `json:"stream"`
}

type page struct {
	Count      int              `json:"count"`
	Total      *int             `json:"total"`
	NextOffset *int             `json:"next_offset"`
	Actions    []entry          `json:"actions"`
	RawActions []map[string]any `json:"-"`
}

func listPage(t *testing.T, r toolResult) page {
	t.Helper()
	require.False(t, r.IsError, "unexpected tool error: %s", r.Text)
	var p page
	r.decodeResult(t, &p)
	var raw struct {
		Actions []map[string]any `json:"actions"`
	}
	r.decodeResult(t, &raw)
	p.RawActions = raw.Actions
	return p
}

func TestListActions(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())

		all := listPage(t, s.call(t, "list_actions", nil, nil))
		t.Run("lists every action compactly without paging", func(t *testing.T) {
			assert.Equal(t, catalogSize, all.Count)
			assert.Len(t, all.Actions, catalogSize)
			assert.Nil(t, all.Total, "unpaged replies keep the {count, actions} shape")
			for _, a := range all.RawActions {
				assert.ElementsMatch(t, []string{"name", "category", "summary", "aliases", "readOnly", "stream"}, keys(a),
					"list entries are compact")
			}
		})

		t.Run("filters by category", func(t *testing.T) {
			p := listPage(t, s.call(t, "list_actions", map[string]any{"category": "消息"}, nil))
			assert.Equal(t, 5, p.Count)
			names := []string{}
			for _, a := range p.Actions {
				assert.Equal(t, "消息", a.Category)
				names = append(names, a.Name)
			}
			assert.ElementsMatch(t, []string{"send_private_msg", "send_group_msg", "send_msg", "delete_msg", "get_msg"}, names)
		})

		t.Run("filters by read_only and stream", func(t *testing.T) {
			p := listPage(t, s.call(t, "list_actions", map[string]any{"stream": true}, nil))
			require.NotZero(t, p.Count)
			for _, a := range p.Actions {
				assert.True(t, a.Stream, a.Name)
			}
			q := listPage(t, s.call(t, "list_actions", map[string]any{"read_only": false}, nil))
			for _, a := range q.Actions {
				assert.False(t, a.ReadOnly, a.Name)
			}
		})

		t.Run("pages through the whole catalog in order", func(t *testing.T) {
			var names []string
			offset := 0
			for range catalogSize {
				p := listPage(t, s.call(t, "list_actions", map[string]any{"limit": 50, "offset": offset}, nil))
				require.NotNil(t, p.Total)
				assert.Equal(t, catalogSize, *p.Total)
				assert.Equal(t, len(p.Actions), p.Count)
				for _, a := range p.Actions {
					names = append(names, a.Name)
				}
				if p.NextOffset == nil {
					assert.Equal(t, catalogSize-offset, p.Count, "the last page holds the rest")
					break
				}
				assert.Equal(t, 50, p.Count)
				assert.Equal(t, offset+50, *p.NextOffset)
				offset = *p.NextOffset
			}
			var want []string
			for _, a := range all.Actions {
				want = append(want, a.Name)
			}
			assert.Equal(t, want, names)
		})

		t.Run("a paged reply past the end is empty with next_offset null", func(t *testing.T) {
			r := s.call(t, "list_actions", map[string]any{"offset": 500}, nil)
			assert.JSONEq(t, `{"count":0,"total":177,"next_offset":null,"actions":[]}`, string(r.Result))
		})

		for _, bad := range []struct {
			name string
			args map[string]any
		}{
			{"a zero limit is a tool error", map[string]any{"limit": 0}},
			{"a limit over 200 is a tool error", map[string]any{"limit": 201}},
			{"a negative offset is a tool error", map[string]any{"offset": -1}},
			{"a non-integer limit is a tool error", map[string]any{"limit": "ten"}},
			{"an unknown category is a tool error", map[string]any{"category": "nope"}},
			{"an unknown argument is a tool error", map[string]any{"bogus": true}},
		} {
			t.Run(bad.name, func(t *testing.T) {
				r := s.call(t, "list_actions", bad.args, nil)
				assert.True(t, r.IsError)
				assert.Equal(t, "invalid_argument", r.Diag.Kind)
				assert.Equal(t, "failed", r.Diag.Outcome)
			})
		}
	})
}

func TestGetAction(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		tests := []struct {
			name     string
			arg      string
			wantName string
		}{
			{"by name", "send_group_msg", "send_group_msg"},
			{"by alias", "get_ptt_text", "fetch_ptt_text"},
			{"by the other alias", "get_record_text", "fetch_ptt_text"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := s.call(t, "get_action", map[string]any{"name": tt.arg}, nil)
				require.False(t, r.IsError, r.Text)
				var a map[string]json.RawMessage
				r.decodeResult(t, &a)
				assert.JSONEq(t, `"`+tt.wantName+`"`, string(a["name"]))
				for _, k := range []string{"category", "summary", "readOnly", "inputSchema", "returnsSchema", "examples"} {
					assert.Contains(t, a, k, "the full contract has %s", k)
				}
				if tt.arg != tt.wantName {
					assert.Contains(t, string(a["aliases"]), `"`+tt.arg+`"`)
				}
			})
		}
		t.Run("an unknown name is a tool error naming it", func(t *testing.T) {
			r := s.call(t, "get_action", map[string]any{"name": "no_such_action"}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "unknown_action", r.Diag.Kind)
			assert.Contains(t, r.Diag.Message, "no_such_action")
		})
		t.Run("a missing name is a tool error", func(t *testing.T) {
			r := s.call(t, "get_action", map[string]any{}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "invalid_argument", r.Diag.Kind)
		})
	})
}

func TestSearchActions(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		all := listPage(t, s.call(t, "list_actions", nil, nil))
		order := map[string]int{}
		for i, a := range all.Actions {
			order[a.Name] = i
		}

		lower := listPage(t, s.call(t, "search_actions", map[string]any{"query": "group_msg"}, nil))
		t.Run("matches substrings in catalog order", func(t *testing.T) {
			require.NotZero(t, lower.Count)
			var names []string
			last := -1
			for _, a := range lower.Actions {
				names = append(names, a.Name)
				assert.True(t, matches(a, "group_msg"), "%s does not contain the query", a.Name)
				assert.Greater(t, order[a.Name], last, "catalog order")
				last = order[a.Name]
			}
			assert.Contains(t, names, "send_group_msg")
			assert.NotContains(t, names, "send_private_msg")
			want := 0
			for _, a := range all.Actions {
				if matches(a, "group_msg") {
					want++
				}
			}
			assert.Equal(t, want, lower.Count, "every matching action is found")
		})
		t.Run("ignores case", func(t *testing.T) {
			upper := listPage(t, s.call(t, "search_actions", map[string]any{"query": "GROUP_MSG"}, nil))
			assert.Equal(t, lower.Actions, upper.Actions)
		})
		t.Run("finds actions by alias", func(t *testing.T) {
			p := listPage(t, s.call(t, "search_actions", map[string]any{"query": "get_ptt_text"}, nil))
			require.Equal(t, 1, p.Count)
			assert.Equal(t, "fetch_ptt_text", p.Actions[0].Name)
		})
		t.Run("pages like list_actions", func(t *testing.T) {
			p := listPage(t, s.call(t, "search_actions", map[string]any{"query": "group", "limit": 3}, nil))
			assert.Equal(t, 3, p.Count)
			require.NotNil(t, p.Total)
			require.NotNil(t, p.NextOffset)
			assert.Equal(t, 3, *p.NextOffset)
		})
		t.Run("finds nothing for a nonsense query", func(t *testing.T) {
			p := listPage(t, s.call(t, "search_actions", map[string]any{"query": "zzqqxx-no-such-thing"}, nil))
			assert.Equal(t, 0, p.Count)
			assert.Empty(t, p.Actions)
		})
		t.Run("a missing query is a tool error", func(t *testing.T) {
			r := s.call(t, "search_actions", map[string]any{}, nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "invalid_argument", r.Diag.Kind)
		})
	})
}

func TestListCategories(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		r := s.call(t, "list_categories", nil, nil)
		require.False(t, r.IsError, r.Text)
		var cats []struct {
			Category string `json:"category"`
			Count    int    `json:"count"`
		}
		r.decodeResult(t, &cats)
		require.Len(t, cats, 11)
		sum := 0
		for _, c := range cats {
			sum += c.Count
		}
		assert.Equal(t, catalogSize, sum)

		t.Run("each count matches list_actions for that category", func(t *testing.T) {
			for _, c := range cats {
				p := listPage(t, s.call(t, "list_actions", map[string]any{"category": c.Category}, nil))
				assert.Equal(t, c.Count, p.Count, c.Category)
			}
		})
	})
}

// matches is the documented search rule: case-insensitive substring of
// the name, an alias, the summary or the category.
func matches(a entry, q string) bool {
	q = strings.ToLower(q)
	if strings.Contains(strings.ToLower(a.Name), q) || strings.Contains(strings.ToLower(a.Summary), q) ||
		strings.Contains(strings.ToLower(a.Category), q) {
		return true
	}
	for _, al := range a.Aliases {
		if strings.Contains(strings.ToLower(al), q) {
			return true
		}
	}
	return false
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
