package search

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The ranked search (bm25.go) reads actions and requests as index terms,
// the same way on both sides, so that a request matches an action by what
// both say rather than by how either spells it:
//
//   - English is split at anything but letters and digits and at case
//     changes (getGroupList is get · group · list), lower-cased, read
//     without a plural s, with the catalog's abbreviations written out
//     (msg is message, del is delete) and each word replaced by its
//     synonym group (recall and 撤回 are one term).
//   - Chinese has no spaces. A run of Han characters is read by its
//     dictionary words (the synonym groups' Chinese, from the left, the
//     longest at each place, each by its group), and where no
//     dictionary word covers a character, by the character pairs around it
//     (bigrams, as search engines index CJK text): a word nobody listed
//     still matches an action whose summary holds it.
//   - Filler words ("the", "please", "的", "帮我") are no terms at all.

// abbreviations are the short forms the catalog's names and other bot
// APIs use, and the words they stand for.
var abbreviations = map[string]string{
	"msg": "message", "msgs": "message", "info": "information", "del": "delete", "img": "image", "pic": "image",
	"pics": "image", "grp": "group", "usr": "user", "pm": "private message", "dm": "private message", "qq": "", "nc": "",
	"uin": "user", "uid": "user", "gid": "group", "sys": "system", "ex": "", "pls": "please", "plz": "please",
	"config": "setting", "cfg": "setting", "av": "avatar", "ptt": "voice", "rm": "remove", "mv": "move",
	"ls": "list", "cnt": "count", "num": "count", "ann": "announcement", "notif": "notification",
	"fav": "favorite", "dms": "private message", "pms": "private message", "fwd": "forward", "pfp": "avatar", "dl": "download", "ul": "upload", "txt": "text", "ur": "your", "u": "you", "rn": "now", "ver": "version",
}

// classOf maps every word of a synonym group to its group's first word:
// one term for the whole group.
var classOf = func() map[string]string {
	m := map[string]string{}
	for _, group := range synonyms {
		for _, w := range group {
			m[w] = group[0]
		}
	}
	return m
}()

// dictionary is the Chinese a run of Han characters is read by: the
// synonym groups' and the fillers'. The vocabulary's Chinese is read by
// it like any text (its bigrams match a request's), so that a vocabulary
// word never hides the words it is made of.
var dictionary = sync.OnceValues(func() (map[string]bool, int) {
	m := map[string]bool{}
	add := func(w string) {
		if isHan(w) {
			m[w] = true
		}
	}
	for _, group := range synonyms {
		for _, w := range group {
			add(w)
		}
	}
	for w := range fillers {
		add(w)
	}
	n := 0
	for w := range m {
		n = max(n, utf8.RuneCountInString(w))
	}
	return m, n
})

// englishTerm is the term of one English word (lower case): "" for a
// filler. A word no synonym group holds is tried without an -s, -ed or
// -ing ending (kicked, muted, banned, sending) before it stands for
// itself.
func englishTerm(w string) string {
	if long, ok := abbreviations[w]; ok {
		w, _, _ = strings.Cut(long, " ") // tokenize reads every word of a longer one
	}
	if w == "" || fillers[w] {
		return ""
	}
	if c, ok := classOf[w]; ok {
		return c
	}
	for _, s := range stems(w) {
		if c, ok := classOf[s]; ok {
			return c
		}
	}
	if s, ok := singular(w); ok {
		return s
	}
	return w
}

// stems are the forms w may have without an inflection's ending: kicked
// is kick, muted mute, banned ban, sending send, messages message,
// shareable share, searchability search, recommendation recommend,
// deletion delete.
func stems(w string) []string {
	var out []string
	if s, ok := singular(w); ok {
		out = append(out, s)
	}
	for _, end := range []string{"ed", "ing", "able", "ability", "ation", "ion"} {
		base, ok := strings.CutSuffix(w, end)
		if !ok || len(base) < 2 {
			continue
		}
		out = append(out, base, base+"e")
		if n := len(base); n >= 2 && base[n-1] == base[n-2] {
			out = append(out, base[:n-1])
		}
	}
	return out
}

// hanTerm is the term of a dictionary word: its group's, "" for a filler.
func hanTerm(w string) string {
	if fillers[w] {
		return ""
	}
	if c, ok := classOf[w]; ok {
		return c
	}
	return w
}

// tokenize appends text's terms to out; fix (nil: none) may replace the
// term t of an English word w (a request's typos, bm25.go).
func tokenize(text string, out []string, fix func(w, t string) string) []string {
	var han []rune
	start := -1 // of the current English word, in text
	flushWord := func(end int) {
		if start < 0 {
			return
		}
		parts := splitCase(text[start:end])
		if (len(parts) > 1 || (fix != nil && end-start >= 6)) && isWord(text[start:end]) {
			// (a request's long word, too: "friendlist" is friendList)
			// An API's name (getChat, sendFriendMessage) is also one term,
			// rarer than its words, so that it finds the one action it names.
			out = append(out, "#"+strings.ToLower(text[start:end]))
		}
		for _, w := range parts {
			w = strings.ToLower(w)
			if long, ok := abbreviations[w]; ok && strings.Contains(long, " ") {
				for _, l := range strings.Fields(long) { // dm is a private message
					out = append(out, englishTerm(l))
				}
				continue
			}
			t := englishTerm(w)
			if t != "" && fix != nil {
				t = fix(w, t)
			}
			if len(t) > 1 { // a lone letter is what an id's blanking left ("0a1b2c3d"): no word
				out = append(out, t)
			}
		}
		start = -1
	}
	for i, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			flushWord(i)
			han = append(han, r)
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if len(han) > 0 {
				out = hanTerms(han, out)
				han = han[:0]
			}
			if start < 0 {
				start = i
			}
		default:
			flushWord(i)
			if len(han) > 0 {
				out = hanTerms(han, out)
				han = han[:0]
			}
		}
	}
	flushWord(len(text))
	return hanTerms(han, out)
}

// splitCase splits a word at its case changes: getGroupList is get, Group,
// List; HTTPServer is HTTP, Server; a word of digits alone is dropped (a
// number in a request is a parameter).
func splitCase(w string) []string {
	var out []string
	from := 0
	for i := 1; i < len(w); i++ {
		prev, cur := rune(w[i-1]), rune(w[i])
		next := rune(0)
		if i+1 < len(w) {
			next = rune(w[i+1])
		}
		acronymPlural := next == 's' && i+2 == len(w) // DMs, IDs: an acronym's plural, one word
		if (unicode.IsLower(prev) && unicode.IsUpper(cur)) || (unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next) && !acronymPlural) ||
			(unicode.IsDigit(prev) != unicode.IsDigit(cur)) {
			out = append(out, w[from:i])
			from = i
		}
	}
	out = append(out, w[from:])
	kept := out[:0]
	for _, p := range out {
		if !number(p) {
			kept = append(kept, p)
		}
	}
	return kept
}

// hanTerms appends the terms of a run of Han characters: its dictionary
// words, read from the left taking the longest word at each place (so the
// 说 of 说说 is not read again alone), and the bigrams where no dictionary
// word covers a character.
func hanTerms(run []rune, out []string) []string {
	dictionary, longestEntry := dictionary()
	covered := make([]bool, len(run))
	for i := 0; i < len(run); {
		j := min(len(run), i+longestEntry)
		for ; j > i && !dictionary[string(run[i:j])]; j-- {
		}
		if j == i {
			i++
			continue
		}
		for k := i; k < j; k++ {
			covered[k] = true
		}
		if t := hanTerm(string(run[i:j])); t != "" {
			out = append(out, t)
		}
		i = j
	}
	// A bigram across a word's edge is read only for a character left
	// alone between words ("让大家看看" is 大家, not 让大 and 家看).
	alone := func(i int) bool {
		return !covered[i] && (i == 0 || covered[i-1]) && (i+1 == len(run) || covered[i+1])
	}
	for i := 0; i+1 < len(run); i++ {
		if !covered[i] || !covered[i+1] || alone(i) {
			out = append(out, string(run[i:i+2]))
		}
	}
	return out
}

// nameWords are an action name's words: split at _ . - and case changes.
func nameWords(name string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '.' || r == '-' || r == ' ' }) {
		out = append(out, splitCase(p)...)
	}
	return out
}

// containsAny reports whether s holds one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// endsWithAny reports whether s ends in one of words.
func endsWithAny(s string, words []string) bool {
	for _, w := range words {
		if strings.HasSuffix(s, w) {
			return true
		}
	}
	return false
}
