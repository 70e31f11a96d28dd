package catalog

import (
	"sort"
	"strings"
	"unicode"
)

// synonyms groups words an agent may use for the same idea, Chinese and
// English side by side. A search term that is one of them matches any.
var synonyms = [][]string{
	{"群", "group"},
	{"禁言", "mute", "ban"},
	{"消息", "message", "msg"},
	{"好友", "friend"},
	{"文件", "file"},
	{"撤回", "recall", "delete"},
	{"图片", "image", "img", "picture"},
	{"语音", "record", "voice", "ptt"},
	{"成员", "member"},
	{"管理员", "admin"},
	{"踢", "kick"},
	{"发送", "send"},
	{"获取", "get", "fetch"},
	{"上传", "upload"},
	{"下载", "download"},
	{"空间", "qzone"},
	{"相册", "album"},
	{"公告", "notice"},
	{"精华", "essence"},
	{"请求", "request"},
	{"名片", "card"},
	{"头衔", "title"},
	{"表情", "face", "emoji"},
	{"点赞", "like"},
	{"转发", "forward"},
	{"私聊", "private"},
	{"状态", "status"},
	{"登录", "login"},
	{"版本", "version"},
	{"流", "stream"},
}

// expansions maps every synonym (lower case) to its whole group.
var expansions = func() map[string][]string {
	m := map[string][]string{}
	for _, group := range synonyms {
		for _, w := range group {
			m[w] = group
		}
	}
	return m
}()

// Ranks of a keyword match, best first.
const (
	rankExact    = iota // the query or a term is the action's name or alias
	rankAllName         // every term matches the name or an alias
	rankSomeName        // some term matches the name or an alias
	rankOther           // the terms match only the summary or category
)

// SearchKeywords splits query on spaces, keeps actions passing f that match
// every term (a term matches when it or one of its synonyms occurs in the
// name, an alias, the summary or the category), and ranks exact names and
// aliases first, then name matches (shorter names first: they match more
// tightly), then the rest in catalog order.
func (c *Catalog) SearchKeywords(query string, f Filter) []*Action {
	terms := strings.FieldsFunc(strings.ToLower(query), unicode.IsSpace)
	if len(terms) == 0 {
		return []*Action{}
	}
	whole := strings.Join(terms, " ")
	type hit struct {
		a    *Action
		rank int
	}
	var hits []hit
	for _, a := range c.parsed().doc.Actions {
		if !f.Match(a) {
			continue
		}
		if rank, ok := c.index[a].rank(terms, whole); ok {
			hits = append(hits, hit{a, rank})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].rank != hits[j].rank {
			return hits[i].rank < hits[j].rank
		}
		return hits[i].rank != rankOther && len(hits[i].a.Name) < len(hits[j].a.Name)
	})
	out := make([]*Action, len(hits))
	for i, h := range hits {
		out[i] = h.a
	}
	return out
}

// haystack is an action's searchable text, lower-cased once at load.
type haystack struct {
	names []string // name and aliases
	text  string   // name, aliases, summary, category
}

func newHaystack(a *Action) haystack {
	names := append([]string{strings.ToLower(a.Name)}, lowerAll(a.Aliases)...)
	return haystack{names: names, text: strings.ToLower(strings.Join(append(names, a.Summary, a.Category), "\n"))}
}

func lowerAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strings.ToLower(x)
	}
	return out
}

func (h haystack) rank(terms []string, whole string) (int, bool) {
	inName := 0
	exact := false
	for _, t := range terms {
		words := expansions[t]
		if words == nil {
			words = []string{t}
		}
		found, named := false, false
		for _, w := range words {
			if strings.Contains(h.text, w) {
				found = true
			}
			for _, n := range h.names {
				if strings.Contains(n, w) {
					named = true
				}
				if n == t || n == whole {
					exact = true
				}
			}
		}
		if !found {
			return 0, false
		}
		if named {
			inName++
		}
	}
	switch {
	case exact:
		return rankExact, true
	case inName == len(terms):
		return rankAllName, true
	case inName > 0:
		return rankSomeName, true
	}
	return rankOther, true
}
