package search

import (
	"sort"
	"unicode"
)

// hanIndex finds, for a run of Chinese the vocabulary does not know, its
// longest beginning that the catalog's text holds, in time that grows with
// that beginning (times the logarithm of the catalog's size), never with
// the whole run or the whole catalog. It replaced a search of the catalog's
// text for every prefix of every remaining run, whose cost grew with the
// cube of a run's length (issue 43: 1,000 characters took seconds).
//
// It is a suffix array: every suffix of the catalog's runs of Chinese,
// sorted. A query's longest match is shared with one of the two suffixes
// beside the place the query would sort into.
type hanIndex struct {
	text []rune  // the catalog's runs of Han characters, each ended by a 0
	sa   []int32 // the start of every suffix of text, in order
}

// newHanIndex indexes the Han characters of text, a run at a time.
func newHanIndex(text string) *hanIndex {
	var rs []rune
	in := false
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			rs, in = append(rs, r), true
		case in:
			rs, in = append(rs, 0), false
		}
	}
	if in {
		rs = append(rs, 0)
	}
	sa := make([]int32, 0, len(rs))
	for i, r := range rs {
		if r != 0 {
			sa = append(sa, int32(i))
		}
	}
	x := &hanIndex{text: rs, sa: sa}
	sort.Slice(sa, func(i, j int) bool { return x.compare(int(sa[i]), rs[sa[j]:]) < 0 })
	return x
}

// compare orders the suffix at i against q, a suffix's ending 0 sorting
// before any character: -1, 0 or +1.
func (x *hanIndex) compare(i int, q []rune) int {
	for k := 0; ; k++ {
		s := x.text[i+k]
		switch {
		case k == len(q) || (q[k] == 0 && s == 0):
			if s == 0 {
				return 0
			}
			return 1
		case s < q[k]:
			return -1
		case s > q[k]:
			return 1
		}
	}
}

// common is how many characters the suffix at i shares with q's start.
func (x *hanIndex) common(i int, q []rune) int {
	k := 0
	for k < len(q) && x.text[i+k] != 0 && x.text[i+k] == q[k] {
		k++
	}
	return k
}

// longest is how many of q's first characters occur together in the
// catalog's text (0 when not even the first does).
func (x *hanIndex) longest(q []rune) int {
	at := sort.Search(len(x.sa), func(i int) bool { return x.compare(int(x.sa[i]), q) >= 0 })
	n := 0
	if at < len(x.sa) {
		n = x.common(int(x.sa[at]), q)
	}
	if at > 0 {
		n = max(n, x.common(int(x.sa[at-1]), q))
	}
	return n
}
