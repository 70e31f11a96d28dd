package search

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/snowluma/snowluma-mcp/catalog"
)

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

// SearchKeywords splits query into terms (see terms.go), keeps actions
// passing f that match every term (a term matches when it or one of its
// synonyms occurs in the name, an alias, the summary or the category), and
// ranks exact names and aliases first, then the rest as Suggest does: by
// what the request asks for (intent.go), then by the ranking's score
// (bm25.go), then shorter names. It stops early, with nothing, once ctx is
// done: the caller reads ctx.Err().
func (c *Index) SearchKeywords(ctx context.Context, query string, f catalog.Filter) []*catalog.Action {
	hits := c.weighed(ctx, query, f, true)
	scores := c.scores(query)
	for i := range hits {
		hits[i].weight = c.weigh(hits[i].a, scores[hits[i].at])
	}
	slices.SortStableFunc(hits, ranked)
	return actionsOf(liftStrongDemoted(hits), len(hits))
}

// MaxSuggestions bounds Suggest.
const MaxSuggestions = 10

// Suggest ranks the actions passing f that the request's terms score
// (bm25.go, the payload not voting): exact names and aliases first, then
// by what the request asks for (intent.go: no write above a read for a
// read, no removal first unless it removes; liftStrongDemoted), then by
// score, then shorter names; the actions that send a message segment the
// request asks to send go first (hinted); at most MaxSuggestions. It is what a search offers
// beside, or instead of, its hits (Find and search_actions say when). It
// stops early, with nothing, once ctx is done.
func (c *Index) Suggest(ctx context.Context, query string, f catalog.Filter) []*catalog.Action {
	if ctx.Err() != nil {
		return nil
	}
	c = c.parsed()
	scores := c.scores(query)
	whole := strings.ToLower(strings.TrimSpace(query))
	in := c.intent(query)
	// The hits the request's intent demotes are kept apart, so that
	// liftStrongDemoted sees them however many others match.
	var hits, demoted []hit
	for i, a := range c.all {
		h := c.index[a]
		exact := contains(h.names, whole)
		if (scores[i] <= 0 && !exact) || !f.Match(a) {
			continue
		}
		r := rankOther
		if exact {
			r = rankExact
		}
		x := hit{a: a, at: i, weight: c.weigh(a, scores[i]), rank: r, demotion: in.demotion(a, h, query)}
		if in == intentRemove && h.removes {
			x.weight *= removalShare
		}
		if x.demotion > 0 && r != rankExact {
			demoted = keepBest(demoted, x)
		} else {
			hits = keepBest(hits, x)
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	hits = liftStrongDemoted(append(hits, demoted...))
	return c.hinted(ctx, query, f, actionsOf(hits, MaxSuggestions))
}

// keepBest inserts h into best, kept in ranked order and cut to
// MaxSuggestions: a search keeps the few it shows, never sorts them all.
func keepBest(best []hit, h hit) []hit {
	i := len(best)
	for i > 0 && ranked(h, best[i-1]) < 0 {
		i--
	}
	if i >= MaxSuggestions {
		return best
	}
	if len(best) < MaxSuggestions {
		best = append(best, hit{})
	}
	copy(best[i+1:], best[i:len(best)-1])
	best[i] = h
	return best
}

// scores are the ranking's score of every action for query, in catalog
// order.
func (c *Index) scores(query string) []float64 {
	c = c.parsed()
	scores := make([]float64, len(c.all))
	terms := c.bm25.termsFor(query, c.intent(query))
	c.bm25.score(terms, scores)
	if !slices.ContainsFunc(scores, func(s float64) bool { return s > 0 }) {
		// Nothing outside the payload matched (问一下群 4455 今晚谁来: all of
		// it is what to ask): the payload is all there is to go by.
		terms = tokenize(query, nil, c.bm25.fix)
		c.bm25.score(terms, scores)
	}
	c.votes.add(terms, scores)
	if strings.Contains(query, "_") {
		for _, w := range strings.FieldsFunc(withoutPayload(query), notNameRune) { // (a purpose's name is no request for it)
			if !strings.Contains(w, "_") {
				continue
			}
			if a, ok := c.cat.Lookup(strings.ToLower(w)); ok {
				scores[c.at[a]] += namedBonus // send_msg message_type=group …: the request names its action
			}
		}
	}
	if !namesGroup(query) {
		share := groupShare
		if namesPrivate(query) {
			share = privateShare
		}
		c.keepShare(scores, func(h haystack) bool { return h.inGroup }, share)
	}
	if !namesQzone(query) {
		c.keepShare(scores, func(h haystack) bool { return h.inQzone }, qzoneShare)
	}
	if !namesDoubt(query) {
		c.keepShare(scores, func(h haystack) bool { return h.inDoubt }, doubtShare)
	}
	named := entitiesOf(query)
	if folderWhere(query, c.intent(query)) != nil {
		named &^= entityFolder // rename file /a1 in folder /f9: the folder is where, not what
	}
	personless := named&entityUser == 0 && !mentionsPerson(query)
	for i, a := range c.all {
		if scores[i] <= 0 {
			continue
		}
		for k := named & c.index[a].reads; k != 0; k &= k - 1 {
			scores[i] += entityBonus
		}
		for k := named & c.index[a].needs; k != 0; k &= k - 1 {
			scores[i] += needsBonus
		}
		if personless && a.ReadOnly && c.index[a].needs&entityUser != 0 {
			scores[i] *= personlessShare // status check: the bot's, not a user's (nc_get_user_status needs one)
		}
	}
	return scores
}

// placeholderShare is how much of its score a compatibility placeholder
// keeps: it answers the same whatever it is asked (can_send_image always
// says yes), so a real action that matches as well goes before it.
const placeholderShare = 0.8

// keepShare multiplies by share the score of each action whose haystack
// is one of those a request did not name (a group's, the QQ space's).
func (c *Index) keepShare(scores []float64, of func(haystack) bool, share float64) {
	for i, a := range c.all {
		if of(c.index[a]) {
			scores[i] *= share
		}
	}
}

// weigh is an action's score as the ranking uses it.
func (c *Index) weigh(a *catalog.Action, score float64) float64 {
	if c.index[a].placeholder {
		return score * placeholderShare
	}
	return score
}

// removalShare is what a removal's score counts for a request that
// removes: a little more, so that of two near matches the one that
// removes goes first (取消掉那个赞: the cancel, not the like).
const removalShare = 1.1

// strongDemoted is how many times another hit's score one that the
// request's intent demotes needs to go above it, below the first place.
const strongDemoted = 2.0

// liftStrongDemoted reorders hits below the first: the first stays what
// the request's intent puts first (a read for a request that reads, so a
// hasty model that calls it changes nothing), but a hit the intent
// demotes that matches the request far better than another goes above it
// instead of out of sight: a lookup SnowLuma's catalog marks as a write
// (a flash transfer's file list) for a read request, a read for a request
// that changes something. An exact name keeps its place.
func liftStrongDemoted(hits []hit) []hit {
	if len(hits) < 3 {
		return hits
	}
	if h := hits[0]; h.demotion == 0 && h.rank != rankExact {
		for i, d := range hits[1:] {
			if d.demotion == 2 && d.a.ReadOnly && d.weight >= strongDemoted*h.weight {
				// A read that matches a request to change something twice as
				// well as the first write goes first: it is what was asked,
				// and calling it by mistake changes nothing.
				hits = append(append([]hit{d}, hits[:i+1]...), hits[i+2:]...)
				break
			}
		}
	}
	rest := slices.Clone(hits[1:])
	key := func(h hit) float64 {
		switch {
		case h.rank == rankExact:
			return math.Inf(1)
		case h.demotion > 0:
			return h.weight / strongDemoted
		}
		return h.weight
	}
	slices.SortStableFunc(rest, func(a, b hit) int { return -cmp.Compare(key(a), key(b)) })
	return append(hits[:1], rest...)
}

// ranked orders two hits: exact names and aliases first, then by what the
// request asks for, then by score, then shorter names.
func ranked(a, b hit) int {
	if o := exactThenAsked(a, b); o != 0 {
		return o
	}
	if a.weight != b.weight {
		return -cmp.Compare(a.weight, b.weight)
	}
	return cmp.Compare(len(a.a.Name), len(b.a.Name))
}

// hinted puts the actions that send the segment a query asks to send
// (SegmentHint) first, after any exact name, and cuts the list to
// MaxSuggestions.
func (c *Index) hinted(ctx context.Context, query string, f catalog.Filter, ranked []*catalog.Action) []*catalog.Action {
	h, ok := c.SegmentHint(ctx, query)
	if !ok {
		return ranked[:min(MaxSuggestions, len(ranked))]
	}
	q := strings.ToLower(strings.TrimSpace(query))
	out := make([]*catalog.Action, 0, MaxSuggestions)
	lead := map[*catalog.Action]bool{}
	for _, a := range ranked {
		if contains(c.index[a].names, q) {
			out = append(out, a)
			lead[a] = true
		}
	}
	for _, n := range h.Actions {
		if a, ok := c.cat.Lookup(n); ok && f.Match(a) && !lead[a] {
			out = append(out, a)
			lead[a] = true
		}
	}
	for _, a := range ranked {
		if !lead[a] {
			out = append(out, a)
		}
	}
	return out[:min(MaxSuggestions, len(out))]
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// before orders a first when it is true, for a sort's comparison.
func before(first bool) int {
	if first {
		return -1
	}
	return 1
}

// hit is how an action matched a query's terms.
type hit struct {
	a            *catalog.Action
	at           int     // its place in the catalog
	found, named int     // terms matched anywhere, and in the name or an alias
	weight       float64 // the terms' weights (see Suggest)
	rank         int
	demotion     int // what the request asks for (intent.go)
}

// terms are the query's terms, each with whether every action matches it
// and its weight, and the query as one word (for exact names). A term no
// action matches is dropped: it can only say that nothing matches. Once
// ctx is done it returns no terms, so nothing matches.
func (c *Index) terms(ctx context.Context, query string) ([]term, string) {
	c = c.parsed()
	all := c.all
	var out []term
	for _, t := range terms(query, c.han) {
		if ctx.Err() != nil {
			return nil, ""
		}
		t.in = c.matching(t.words)
		n := 0
		for _, in := range t.in {
			if in {
				n++
			}
		}
		if n == 0 {
			continue
		}
		// log(actions / actions it matches): a rare term tells more.
		t.weight = math.Log(float64(len(all)+1) / float64(n+1))
		out = append(out, t)
	}
	return out, strings.ToLower(strings.TrimSpace(query))
}

// matching says for each action whether it holds any of words. A synonym
// group's answer is kept: the groups are few and queries use them again.
func (c *Index) matching(words []string) []bool {
	_, group := expansions[words[0]]
	if group {
		c.groupsMu.Lock()
		defer c.groupsMu.Unlock()
		if in, ok := c.groups[words[0]]; ok {
			return in
		}
	}
	in := make([]bool, len(c.all))
	for i, a := range c.all {
		in[i] = c.index[a].hasAny(words)
	}
	if group {
		c.groups[words[0]] = in
	}
	return in
}

// match returns how each action passing f matches ts, in catalog order;
// nothing once ctx is done.
func (c *Index) match(ctx context.Context, ts []term, whole string, f catalog.Filter) []hit {
	if len(ts) == 0 {
		return nil
	}
	all := c.parsed().all
	out := make([]hit, 0, len(all))
	for i, a := range all {
		if ctx.Err() != nil {
			return nil
		}
		if f.Match(a) {
			out = append(out, c.index[a].match(a, i, ts, whole))
		}
	}
	return out
}

// hasAny reports whether any of ws occurs.
func (h haystack) hasAny(ws []string) bool {
	for _, w := range ws {
		if h.has(w) {
			return true
		}
	}
	return false
}

func actionsOf(hits []hit, limit int) []*catalog.Action {
	out := make([]*catalog.Action, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.a)
	}
	return out
}

// haystack is searchable text, lower-cased once at load: an action's, or
// the whole catalog's (Catalog.corpus).
type haystack struct {
	removes     bool            // the action removes something (intent.go)
	builds      bool            // a read named for making something (intent.go)
	reads       entity          // the kinds of id its params take (entities.go)
	needs       entity          // the kinds of id its required params take
	placeholder bool            // it is a compatibility placeholder (intent.go)
	looksUp     []string        // catalogued as a write, it only reads: its family's words (intent.go)
	inGroup     bool            // it acts in a group (entities.go)
	inQzone     bool            // it acts on the QQ space (entities.go)
	inDoubt     bool            // it acts on the risky friend requests (entities.go)
	names       []string        // name and aliases
	text        string          // name, aliases, summary, category
	words       map[string]bool // the text's English words (names split at _), with their singulars
	nameWords   map[string]bool // the same of the names alone
}

func newHaystack(a *catalog.Action) haystack {
	names := append([]string{strings.ToLower(a.Name)}, lowerAll(a.Aliases)...)
	h := haystackOf(names, strings.ToLower(strings.Join(append(names, a.Summary, a.Category), "\n")))
	h.removes, h.placeholder, h.builds, h.reads, h.looksUp, h.inGroup = removes(a), placeholder(a), builds(a), readsOf(a, false), lookups[a.Name], inGroup(a)
	h.inQzone, h.inDoubt = strings.Contains(a.Name, "qzone"), strings.Contains(a.Name, "doubt")
	h.needs = readsOf(a, true) &^ entityGroup // a group named is the scope of nearly every group action, not its object
	return h
}

func haystackOf(names []string, text string) haystack {
	return haystack{names: names, text: text, words: wordsOf(text), nameWords: wordsOf(strings.Join(names, " "))}
}

// wordsOf returns the English words of text (split at anything else,
// _ included), with their singulars.
func wordsOf(text string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))) }) {
		m[w] = true
		if s, ok := singular(w); ok {
			m[s] = true
		}
	}
	return m
}

func lowerAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strings.ToLower(x)
	}
	return out
}

// has reports whether w occurs: an English word as a whole word (so "who"
// does not match "whole"), anything else (Chinese, a name with _) as text.
func (h haystack) has(w string) bool {
	if isWord(w) {
		return h.words[w]
	}
	return strings.Contains(h.text, w)
}

// isWord reports whether w is one plain English word.
func isWord(w string) bool {
	for _, r := range w {
		if r >= unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return w != ""
}

// match reads how the action, the i-th of the catalog, matches ts.
func (h haystack) match(a *catalog.Action, i int, ts []term, whole string) hit {
	out := hit{a: a, at: i}
	exact := false
	for _, n := range h.names {
		if n == whole {
			exact = true
		}
		for _, t := range ts {
			if n == t.word {
				exact = true
			}
		}
	}
	for _, t := range ts {
		if !t.in[i] {
			continue
		}
		out.found++
		out.weight += t.weight
		for _, w := range t.words {
			if h.nameHas(w) {
				out.named++
				out.weight += t.weight / 2
				break
			}
		}
	}
	switch {
	case exact:
		out.rank = rankExact
	case out.named == len(ts):
		out.rank = rankAllName
	case out.named > 0:
		out.rank = rankSomeName
	default:
		out.rank = rankOther
	}
	return out
}

// nameHas reports whether the name or an alias holds w: one of its
// _-separated words, or a longer piece of it.
func (h haystack) nameHas(w string) bool {
	if isWord(w) {
		return h.nameWords[w]
	}
	for _, n := range h.names {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// weighed is the actions passing f that match every one of the query's
// terms (all) or any, each with its demotion for what the request asks
// for: what SearchKeywords and Suggest then order.
func (c *Index) weighed(ctx context.Context, query string, f catalog.Filter, all bool) []hit {
	ts, whole := c.terms(ctx, query)
	in := c.intent(query)
	var hits []hit
	for _, h := range c.match(ctx, ts, whole, f) {
		if (all && h.found == len(ts)) || (!all && h.found > 0) {
			h.demotion = in.demotion(h.a, c.index[h.a], query)
			hits = append(hits, h)
		}
	}
	return hits
}

// exactThenAsked orders two hits by the first two rules both orders share:
// exact names and aliases first, then the rest by what the request asks
// for; 0 when those rules do not tell them apart.
func exactThenAsked(a, b hit) int {
	switch {
	case (a.rank == rankExact) != (b.rank == rankExact):
		return before(a.rank == rankExact)
	case a.rank != rankExact && a.demotion != b.demotion:
		return cmp.Compare(a.demotion, b.demotion)
	}
	return 0
}

// OnlyChanges reports whether a request only reads while every one of
// found changes something: keywords mode then offers the ranked
// suggestions beside its hits, so that a read request is never answered
// with writes alone.
func (c *Index) OnlyChanges(query string, found []*catalog.Action) bool {
	if len(found) == 0 || c.parsed().intent(query) != intentRead {
		return false
	}
	for _, a := range found {
		if a.ReadOnly {
			return false
		}
	}
	return true
}

// namedBonus is what an action gains when a request names it by its API
// name among other words ("send_msg message_type=group group_id=…"): more
// than any ranking of words gives.
const namedBonus = 20.0

// notNameRune ends an action name in a request: anything but the letters,
// digits, _ and . that names are made of.
func notNameRune(r rune) bool {
	return !(r == '_' || r == '.' || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)))
}
