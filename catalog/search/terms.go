package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A query is split into terms the way people type it: English on spaces
// and punctuation, Chinese (written without spaces) by the vocabulary of
// the synonym table, and whatever run of Chinese that vocabulary does not
// know by the catalog's own text, so that "发送群消息" is 发送 · 群 · 消息 and
// "机型展示" stays one term. Filler words ("a", "my", "的", "一条") are
// dropped, and so is a term that occurs nowhere in the catalog under any of
// its synonyms (Catalog.terms), and so is a number, which is a parameter.

// MaxQueryBytes bounds a search's query (search_actions refuses a longer
// one): 4 KiB, about 1,300 Chinese characters, far beyond any request and
// still searched in a few milliseconds at worst (BenchmarkSearchLongQuery).
const MaxQueryBytes = 4096

// term is one word of a query and every word it stands for.
type term struct {
	word   string
	words  []string // word, its plural-less form and its synonyms
	in     []bool   // whether each action of the catalog matches it (Catalog.terms)
	weight float64  // how much matching it tells (Catalog.terms)
}

// segmentWords is the synonym table's Chinese words, the longest first.
var segmentWords = func() map[string]bool {
	m := map[string]bool{}
	for _, group := range synonyms {
		for _, w := range group {
			if isHan(w) {
				m[w] = true
			}
		}
	}
	for w := range fillers {
		if isHan(w) {
			m[w] = true
		}
	}
	return m
}()

// longestWord is the most runes a vocabulary word has.
var longestWord = func() int {
	n := 0
	for w := range segmentWords {
		n = max(n, utf8.RuneCountInString(w))
	}
	return n
}()

func isHan(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return s != ""
}

// terms splits a query into its search terms; han indexes the catalog's
// Chinese, which splits runs of Chinese the vocabulary does not know. Its
// cost grows with the query's length alone (BenchmarkSearchLongQuery).
func terms(query string, idx *hanIndex) []term {
	var out []term
	seen := map[string]bool{}
	add := func(w string) {
		if w == "" || fillers[w] || seen[w] || number(w) {
			return
		}
		seen[w] = true
		out = append(out, term{word: w, words: expand(w)})
	}
	var word, han []rune
	flush := func() {
		add(string(word))
		for _, w := range segment(han, idx) {
			add(w)
		}
		word, han = word[:0], han[:0]
	}
	for _, r := range strings.ToLower(query) {
		switch {
		case unicode.Is(unicode.Han, r):
			if len(word) > 0 {
				add(string(word))
				word = word[:0]
			}
			han = append(han, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '\'' || r == '.':
			if len(han) > 0 {
				for _, w := range segment(han, idx) {
					add(w)
				}
				han = han[:0]
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// number reports whether w is all digits: in a request it is a parameter
// ("mute him for 10 minutes", "禁言10分钟"), and as a search word it would
// only empty a keywords search that every other word matches.
func number(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// expand returns a word with its synonyms (or its singular's).
func expand(w string) []string {
	if g := expansions[w]; g != nil {
		return g
	}
	if s, ok := singular(w); ok {
		if g := expansions[s]; g != nil {
			return g
		}
		return []string{w, s}
	}
	return []string{w}
}

// singular strips an English plural's s.
func singular(w string) (string, bool) {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !isHan(w) {
		return strings.TrimSuffix(w, "s"), true
	}
	return "", false
}

// segment splits a run of Chinese into the fewest pieces, preferring
// vocabulary words (a map by word, tried up to the longest word's length at
// each place); runs the vocabulary does not cover are cut into the longest
// pieces that occur in the catalog, each found by idx in one look (a single
// unknown character is dropped: alone it matches too much to mean
// anything).
func segment(run []rune, idx *hanIndex) []string {
	if len(run) == 0 {
		return nil
	}
	// cost[i] is the best cost of run[i:]: one per vocabulary word, two per
	// unknown character, so known words win.
	n := len(run)
	cost, next := make([]int, n+1), make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		cost[i], next[i] = cost[i+1]+2, i+1
		for j := min(n, i+longestWord); j > i; j-- {
			if segmentWords[string(run[i:j])] && cost[j]+1 < cost[i] {
				cost[i], next[i] = cost[j]+1, j
			}
		}
	}
	var out []string
	var unknown []rune
	emit := func() {
		for len(unknown) > 0 {
			// The longest prefix the catalog knows.
			k := idx.longest(unknown)
			if k > 1 {
				out = append(out, string(unknown[:k]))
			}
			unknown = unknown[max(k, 1):]
		}
	}
	for i := 0; i < n; i = next[i] {
		w := string(run[i:next[i]])
		if next[i] == i+1 && !segmentWords[w] {
			unknown = append(unknown, run[i])
			continue
		}
		emit()
		out = append(out, w)
	}
	emit()
	return out
}
