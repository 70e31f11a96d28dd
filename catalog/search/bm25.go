package search

import (
	"math"
	"slices"
	"strings"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/typo"
)

// The ranking is one scoring model, BM25F, the one text search engines
// use: each action is a document of fields (its name's words with its
// aliases', the vocabulary of how people and other bot APIs name it, its
// summary with the English gloss, its category, the words labelled
// requests used for it: learned.go), each field weighted; a
// term weighs more the fewer actions hold it (inverse document frequency:
// "撤回" tells more than "发") and counts with diminishing returns the more
// often a document holds it, relative to the field's usual length. The
// request is read the same way (tokens.go) after its payload is blanked
// (payload.go); a query classifier trained on the labelled requests adds
// to what the text matches (classifier.go), and the intent the request
// states orders the result (intent.go).

// Field weights and BM25's constants: k1 bounds how much repeating a term
// counts, b how much a long field is discounted.
const (
	weightName     = 3.0
	weightVocab    = 2.0
	weightSummary  = 1.0
	weightCategory = 0.5
	bm25K1         = 1.2
	bm25B          = 0.5
)

// The learned field (learned.go) weighs little beside the others, and is
// not discounted for its length: that says how many requests were
// written for the action, not how wordy a text is.
const (
	weightLearned = 0.3
	learnedB      = 0.0
)

// posting is one action holding one term, with the term's whole weight in
// it: the score is a sum of postings, so a search costs the postings of
// the request's terms and nothing else.
type posting struct {
	doc    int32
	weight float32
}

// bm25 is the inverted index of every action's terms.
type bm25 struct {
	postings map[string][]posting
	english  map[string][]string // a term's deletion neighbours → terms (typos)
}

// field is one field of one action: its terms and its weight.
type field struct {
	terms  []string
	weight float64
	b      float64 // how much a long field is discounted
}

// fieldsOf are an action's fields, learned its learnt terms.
func fieldsOf(a *catalog.Action, learned []string) []field {
	var names []string
	for _, n := range append([]string{a.Name}, a.Aliases...) {
		for _, w := range nameWords(n) {
			if t := englishTerm(strings.ToLower(w)); t != "" {
				names = append(names, t)
			}
		}
	}
	return []field{
		{names, weightName, bm25B},
		{tokenize(vocabulary[a.Name], nil, nil), weightVocab, bm25B},
		{tokenize(a.Summary, nil, nil), weightSummary, bm25B},
		{tokenize(a.Category, nil, nil), weightCategory, bm25B},
		{learned, weightLearned, learnedB},
	}
}

// newBM25 indexes actions, with the terms learned for each by name.
func newBM25(actions []*catalog.Action, learned map[string][]string) *bm25 {
	docs := make([][]field, len(actions))
	avg := make([]float64, 5)
	for i, a := range actions {
		docs[i] = fieldsOf(a, learned[a.Name])
		for f, fl := range docs[i] {
			avg[f] += float64(len(fl.terms)) / float64(len(actions))
		}
	}
	// tf[term][doc]: the weighted, length-normalised frequency.
	tf := map[string]map[int32]float64{}
	for i, fs := range docs {
		for f, fl := range fs {
			norm := 1 - fl.b + fl.b*float64(len(fl.terms))/max(avg[f], 1)
			for _, t := range fl.terms {
				if tf[t] == nil {
					tf[t] = map[int32]float64{}
				}
				tf[t][int32(i)] += fl.weight / norm
			}
		}
	}
	x := &bm25{postings: make(map[string][]posting, len(tf)), english: map[string][]string{}}
	n := float64(len(actions))
	for t, docs := range tf {
		idf := math.Log(1 + (n-float64(len(docs))+0.5)/(float64(len(docs))+0.5))
		ps := make([]posting, 0, len(docs))
		for d, f := range docs {
			ps = append(ps, posting{d, float32(idf * f * (bm25K1 + 1) / (f + bm25K1))})
		}
		x.postings[t] = ps
		x.learn(t)
	}
	for w := range classOf {
		x.learn(w)
	}
	return x
}

// learn adds an English word to what a typo is read against.
func (x *bm25) learn(w string) {
	if !isWord(w) || len(w) < 4 {
		return
	}
	for _, k := range deletions(w) {
		if !dup(x.english[k], w) {
			x.english[k] = append(x.english[k], w)
		}
	}
}

// deletions are w and w with one letter left out: two words a typo apart
// share one of them (SymSpell), so a typo is found without comparing the
// word with every term.
func deletions(w string) []string {
	out := []string{w}
	for i := range w {
		out = append(out, w[:i]+w[i+1:])
	}
	return out
}

// fix reads an English word the index does not know as the term of the
// word it is a typo of ("delte" is delete, "mesage" message, "snd" send);
// t itself when there is none.
func (x *bm25) fix(w, t string) string {
	if _, ok := x.postings[t]; ok {
		return t
	}
	for _, s := range stems(w) {
		if _, ok := x.postings[s]; ok {
			return s // pinned is pin, folders folder
		}
	}
	if plainEnglish[w] {
		return t // a word, not a typo
	}
	if n := x.nearest(w); n != "" {
		return englishTerm(n)
	}
	return t
}

// nearest is the known word w is a typo of: the nearest within one edit
// (two for a word of seven letters or more, so that "busid" is no
// "build"; a three-letter word only as a known word with a letter left
// out); "" when there is none.
func (x *bm25) nearest(w string) string {
	if len(w) < 3 || !isWord(w) {
		return ""
	}
	limit := 1
	if len(w) >= 7 {
		limit = 2
	}
	keys := deletions(w)
	if len(w) == 3 {
		keys = keys[:1]
	}
	best, bestD := "", limit+1
	for _, k := range keys {
		for _, c := range x.english[k] {
			if c[0] != w[0] {
				continue // a typo keeps its first letter: "now" is no "snow", "along" no "long"
			}
			if d := typo.Within(w, c, limit); d < bestD || (d == bestD && c < best) {
				best, bestD = c, d
			}
		}
	}
	return best
}

// score adds each action's score for terms to scores (indexed like the
// catalog); a term repeated counts once.
func (x *bm25) score(terms []string, scores []float64) {
	for _, t := range distinct(terms) {
		for _, p := range x.postings[t] {
			scores[p.doc] += float64(p.weight)
		}
	}
}

// distinct is terms without repeats, in order; a map only for a long
// request, so a 4 KiB one costs in proportion to its length.
func distinct(terms []string) []string {
	if len(terms) <= 16 {
		out := terms[:0:0]
		for i, t := range terms {
			if !dup(terms[:i], t) {
				out = append(out, t)
			}
		}
		return out
	}
	seen := make(map[string]bool, len(terms))
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func dup(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// requestTerms are the terms of a request as its text reads: its payload
// blanked, its typos read as the words meant, with what the cue lists and
// the read prior find it asks for (intentOf). The trained tables learn
// from these, and the query classifier weighs them.
func (x *bm25) requestTerms(query string) []string { return x.termsFor(query, intentOf(query)) }

// termsFor are the terms of a request that asks for in, as the ranking
// reads it.
func (x *bm25) termsFor(query string, in intent) []string {
	q := withoutPayload(query)
	if in == intentRead && strings.Contains(strings.ToLower(q), "all") {
		q = allOf.ReplaceAllString(q, " list $1")
	}
	if in == intentRead && containsAny(strings.ToLower(q), []string{"with ", "incl", "their"}) {
		q = withTheir.ReplaceAllString(q, " ")
	}
	if loc := folderWhere(q, in); loc != nil {
		q = q[:loc[0]] + " " + q[loc[1]:] // rename file /a1 in folder /f9: the file is what changes, the folder where it is
	}
	ts := tokenize(q, nil, x.fix)
	ts = slices.DeleteFunc(ts, func(t string) bool { // an API name no action knows is no term
		_, known := x.postings[t]
		return strings.HasPrefix(t, "#") && !known
	})
	if in == intentRead && (countsOrLists(q) || strings.Contains(strings.ToLower(q), "how many") || listedPlural.MatchString(q)) {
		if groupSize.MatchString(q) || fileCount.MatchString(q) {
			ts = append(ts, countTerm) // how many members a group has, or files: its info holds the count
		} else {
			ts = append(ts, listTerm) // 有哪些, 多少, 几个 ask for a list or its length
		}
	}
	if in == intentRead {
		ts = slices.DeleteFunc(ts, func(t string) bool { return t == tellTerm }) // what it says, 怎么说的: content asked for, nothing told
	}
	if in == intentRead && asksAbility(q) {
		ts = append(ts, abilityTerm) // can the bot send voice right now?: what it is able to do
	}
	if strings.ContainsAny(query, "0123456789") { // each needs a number
		if numbers(query) >= 2 && severalIDs.MatchString(query) {
			ts = append(ts, batchTerm) // 10005, 10006 and 10007: the batch action, not one call each
		}
		if strings.Contains(strings.ToLower(query), "qq") && qqID.MatchString(query) && !namesGroup(query) {
			ts = append(ts, userTerm) // "to qq 1212" names a person; the number itself is blanked
		}
	}
	if strings.Contains(query, ".") {
		if docFile.MatchString(query) {
			if fetches.MatchString(query) || in == intentRemove || in == intentRead {
				ts = append(ts, uploadTerms[1]) // a document fetched, read or deleted: a file, not an upload
			} else {
				ts = append(ts, uploadTerms...) // a document is sent as a file: an upload
			}
		}
		if voiceFile.MatchString(query) {
			ts = append(ts, voiceTerm) // e4f5a6.amr is a voice message's file
		} else if imageFile.MatchString(query) {
			ts = append(ts, imageTerm) // 9F3B2C.jpg is an image's
		}
	}
	if q != query && typingShown.MatchString(query) {
		ts = append(ts, typingTerm) // show 'typing...' to 10001: the quote is the state shown
	}
	if q != query && webLink.MatchString(query) {
		// The request carries its link: "link" names the payload, not
		// the action (发个链接 https://… sends a message).
		ts = slices.DeleteFunc(ts, func(t string) bool { return t == linkTerm })
	}
	return ts
}

// typingShown is the typing state a request shows someone, quoted alone
// as the QQ app writes it ('typing...', “正在输入…”): the quote is the
// state, not a message's text. typingTerm is what it adds.
var (
	typingShown = lazy(`(?i)['"“「‘]\s*(?:typing|(?:对方)?正在(?:输入|讲话|说话)|输入中)\s*(?:\.{1,3}|…{1,2})?\s*['"”」’]`)
	typingTerm  = englishTerm("typing")
)

// webLink is a link a request carries: a URL, not a file's name
// ("这条语音的下载链接 file=7788.amr" asks for a link).
var webLink = lazy(`(?i)\b(?:https?|ftp)://|\bwww\.`)

// allOf is "all" before what a read request lists ("show all the groups",
// "get all members"): it quantifies, and as a term it would vote for the
// few actions named for everyone (get_group_at_all_remain).
var allOf = lazy(`(?i)\ball\s+(?:(?:of\s+)?(?:the|my|our|your)\s+)?((?:[a-z]+\s+)?[a-z]+s)\b`)

// folderAt is a folder named as where something is (in folder /f9,
// inside the folder "docs", 在文件夹 /f9 里, 文件夹 /f9 下的); namesFile a
// file named besides it.
var (
	folderAt  = lazy(`(?i)\b(?:in|inside|within|under)\s+(?:the\s+)?(?:group\s+)?(?:folder|dir|directory)\s+\S+|在?文件夹\s*\S+?\s*(?:里面|里|中|下)的?`)
	namesFile = lazy(`(?i)\bfiles?\b|文件(?:[^夹]|$)`)
)

// folderWhere is where q, a request that asks for in, names a folder as
// where the file it changes or removes is; nil when it does not.
func folderWhere(q string, in intent) []int {
	if (in != intentChange && in != intentRemove) || !(strings.Contains(strings.ToLower(q), "folder") || strings.Contains(q, "文件夹")) {
		return nil
	}
	if loc := folderAt.FindStringIndex(q); loc != nil && namesFile.MatchString(q[:loc[0]]+" "+q[loc[1]:]) {
		return loc
	}
	return nil
}

// listedPlural is a read request's English plural of a thing the catalog
// lists ("the members of group 4455", "which albums does it have"): the
// list, not one's facts.
var listedPlural = lazy(`(?i)\b(?:members|groups|friends|albums|folders|notices|announcements|filesets|contacts|devices|categories)\b`)

// countsOrLists reports Chinese that asks which or how many: 哪些, 多少,
// 几个 … (a list, or its length); 是多少 asks a value (它的 fileset id 是多少).
func countsOrLists(q string) bool {
	return containsAny(strings.ReplaceAll(q, "是多少", ""), []string{"哪些", "多少", "几个", "几位", "几条"})
}

// linkTerm is the term of "link", "链接", "url"; listTerm of "list";
// userTerm of "user"; countTerm of "count".
var linkTerm, listTerm, userTerm, countTerm = englishTerm("link"), englishTerm("list"), englishTerm("user"), englishTerm("count")

// groupSize asks how many a group holds: its info's count, not its list.
var groupSize = lazy(`(?i)how many (?:members|people|persons|users)\b.{0,30}\b(?:group|grp|it|have|has|hold)|(?:群|这个群|群里).{0,24}(?:多少人|多少成员|几个人|人数)`)

// tellTerm is the term of say, tell, 说, 告诉.
var tellTerm = englishTerm("tell")

// abilityTerm is what a question about what the bot can do adds.
var abilityTerm = englishTerm("capability")

// asksAbility reports a request, its payload blanked, that asks what the
// bot can do (intent.go).
func asksAbility(q string) bool {
	var en []string
	for _, w := range englishWords(q) {
		en = append(en, strings.ToLower(w))
	}
	return abilityQuestion(q, en) || abilityQuestionZH(q)
}

// fileCount asks how many files a group's files hold: their system info
// holds the count.
var fileCount = lazy(`(?i)how many files|文件.{0,3}(?:多少|几)个|多少个?文件|几个文件|文件数`)

// severalIDs are two ids or more in a list ("10005, 10006 and 10007",
// "80011,80012,80013", "10086、10087、10088"), and batchTerm what they add.
var (
	severalIDs = lazy(`(?i)\d{4,}(?:(?:\s*(?:[,，、]|\band\b|和|及)\s*|\s+)\d{4,})+`)
	batchTerm  = englishTerm("batch")
)

// numbers counts the runs of digits in s: a cheap look before a pattern
// that needs several.
func numbers(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		d := s[i] >= '0' && s[i] <= '9'
		if d && !in {
			n++
		}
		in = d
	}
	return n
}

// qqID is a QQ number named as one ("qq 1212", "QQ号 10001"): in a
// request that names no group (namesGroup) it is a person's.
var qqID = lazy(`(?i)\bqq\s*(?:号|number|no\.?|#)?\s*\d{4,}`)

// docFile is a document's file name or path in a request (an image or a
// voice is sent in a message; a document, an archive or a program only as
// a file), and uploadTerms what it adds.
var (
	// voiceFile and imageFile are a voice's or an image's file name: the
	// name is payload, but its kind says what the request is about.
	voiceFile   = lazy(`(?i)\.(?:amr|silk|slk|mp3|wav|ogg|m4a|aac|flac)\b`)
	imageFile   = lazy(`(?i)\.(?:jpe?g|png|gif|webp|bmp)\b`)
	voiceTerm   = englishTerm("voice")
	imageTerm   = englishTerm("image")
	fetches     = lazy(`(?i)\bdownload|\bback to me\b|下载|取回|拉取|传回|发回|存到|落盘`) // a document fetched, not sent
	docFile     = lazy(`(?i)\.(?:zip|pdf|docx?|xlsx?|pptx?|txt|apk|exe|rar|7z|csv|tar|gz|tgz|xz|bz2|bin|iso|dmg|msi|deb|json|log|db)\b`)
	uploadTerms = []string{englishTerm("upload"), englishTerm("file")}
)

// matched is how many of terms (each once) the doc-th action holds.
func (x *bm25) matched(terms []string, doc int) int {
	n := 0
	for _, t := range distinct(terms) {
		for _, p := range x.postings[t] {
			if int(p.doc) == doc {
				n++
				break
			}
		}
	}
	return n
}

// withTheir is what a read request wants of each item it lists ("all
// members with their cards and roles", "members with roles", "what
// groups am I in, and their names"): the fields of a list, not the
// action that reads one item's.
var withTheir = lazy(`(?i)\b(?:(?:with|and)\s+their|incl\.?|including)\s[^,;!?]*|\bwith\s+(?:roles?|cards?|levels?|titles?|nicknames?|names?)\b[^,;!?]*`)
