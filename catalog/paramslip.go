package catalog

import (
	"sort"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/typo"
)

// maxKey bounds the keys compared by spelling or split into words, so a
// huge key costs nothing: no parameter name is this long.
const maxKey = 64

// NearestParams returns up to three params of the action that key (an
// unknown key) may have meant; see nearestParams.
func (a *Action) NearestParams(key string) []string { return a.nearestParams(key, 0) }

// NearestNames returns up to three of names that key may have meant, by
// the same vocabulary and spelling as an action's params: the did-you-mean
// of a tool's own arguments, which are names without an action.
func NearestNames(key string, names []string) []string {
	a := Action{Params: make([]Param, len(names))}
	for i, n := range names {
		a.Params[i].Name = n
	}
	return a.nearestParams(key, 0)
}

// nearestParams returns up to three params the action reads that key may
// have meant, the likeliest first: those the vocabulary gives for the whole
// key (its meaning: agree is approve, qq is user_id, chat_id is group_id),
// then those spelt nearly like it (case, "_", "-" and "." aside, within an
// edit distance of a third of its length, at most 3), then those the
// vocabulary or spelling gives for one of its words (target_qq,
// newGroupName), the head noun first. Among
// the first and the last, a param whose type takes the key's value (kind,
// the first byte of its JSON; 0 when unknown) comes first.
func (a *Action) nearestParams(key string, kind byte) []string {
	if len(key) > maxKey {
		return nil
	}
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			if len(out) < 3 && !listHas(out, n) {
				out = append(out, n)
			}
		}
	}
	k := foldWord(key)
	add(a.meant(slipWords()[k], kind)...)
	add(a.spelt(k)...)
	if len(out) == 0 {
		// The words of a compound, the head noun first: in target_group_id
		// it is group (the last word that is not a mere id or number), in
		// friend_qq friend; a word such as qq or id only when no other
		// word gives anything.
		words := keyWords(key)
		for _, generic := range []bool{false, true} {
			for i := len(words) - 1; i >= 0; i-- {
				if idWords[words[i]] == generic {
					add(a.meant(slipWords()[words[i]], kind)...)
					add(a.spelt(words[i])...)
				}
			}
		}
	}
	return out
}

// idWords are words that, in a compound key, say "the number of" what the
// other words name (group_qq is a group's number, target_id a target's).
var idWords = map[string]bool{"id": true, "ids": true, "no": true, "num": true, "number": true, "code": true,
	"key": true, "qq": true, "uin": true, "uid": true, "seq": true}

// meant lists the params of the action that carry one of the meanings
// (rows of the vocabulary), in the vocabulary's order, those whose type
// takes a value of kind first.
func (a *Action) meant(rows []int, kind byte) []string {
	var fit, other []string
	for _, r := range rows {
		for _, p := range a.allParams() {
			if !meanings[r].has(p) || listHas(fit, p.Name) || listHas(other, p.Name) {
				continue
			}
			if takesKind(p, kind) {
				fit = append(fit, p.Name)
			} else {
				other = append(other, p.Name)
			}
		}
	}
	return append(fit, other...)
}

// spelt lists the params of the action spelt within a third of the
// folded key's length (at most 3 edits), nearest first.
func (a *Action) spelt(k string) []string {
	type scored struct {
		name string
		d    int
	}
	var near []scored
	limit := min(3, max(1, len(k)/3))
	for _, p := range a.allParams() {
		n := foldWord(p.Name)
		if len(n)-len(k) > limit || len(k)-len(n) > limit {
			continue
		}
		if d := typo.Distance(k, n); d <= limit {
			near = append(near, scored{p.Name, d})
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].d < near[j].d })
	out := make([]string, len(near))
	for i, s := range near {
		out[i] = s.name
	}
	return out
}

// allParams is the declared params, then the raw-read ones.
func (a *Action) allParams() []*Param {
	out := make([]*Param, 0, len(a.Params)+len(a.RawParams))
	for i := range a.Params {
		out = append(out, &a.Params[i])
	}
	for i := range a.RawParams {
		out = append(out, &a.RawParams[i])
	}
	return out
}

// param is the param the action reads by that name, nil when none.
func (a *Action) param(name string) *Param {
	for _, p := range a.allParams() {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// takesKind reports whether a value of kind (a JSON value's first byte) is of
// the param's type; every param takes an unknown kind (0).
func takesKind(p *Param, kind byte) bool {
	switch kind {
	case 0:
		return true
	case 't', 'f':
		return p.Type == "bool"
	case '"':
		return p.Type == "string" || p.Type == "enum" || p.Type == "messageId" || p.Type == "message" || p.Type == "raw"
	case '[', '{':
		return p.Type == "message" || p.Type == "raw" || strings.HasSuffix(p.Type, "[]")
	case 'n':
		return true
	default:
		return p.Type == "int" || p.Type == "uint" || p.Type == "number" || p.Type == "messageId" || p.Type == "raw"
	}
}

// defaultNote says what a param's default is and, where the vocabulary
// knows it, what the default does or what the other value of a switch
// does: what a model must know before it leaves the param out.
func defaultNote(p *Param) string {
	note := p.Name + " defaults to " + string(p.Default)
	m := meaningOf(p)
	switch {
	case m != nil && p.Type == "bool" && m.flip != "":
		other := "false"
		if string(p.Default) == "false" {
			other = "true"
		}
		note += ": pass " + p.Name + ": " + other + " to " + m.flip
	case m != nil && m.keep != "":
		note += ": " + m.keep
	}
	return note
}

// maxDefaults bounds the defaults one next step names.
const maxDefaults = 4

// defaultsLeftOut names the defaults of the params the call does not give
// (what leaving a key out applies), those whose type takes the value of a
// key left out first (agree: false is about a bool), at most maxDefaults.
func (a *Action) defaultsLeftOut(given []string, kinds []byte) []string {
	var fit, other []string
	for _, p := range a.allParams() {
		if len(p.Default) == 0 || listHas(given, p.Name) {
			continue
		}
		match := false
		for _, k := range kinds {
			match = match || takesKind(p, k) && k != 0 && k != 'n'
		}
		if match {
			fit = append(fit, defaultNote(p))
		} else {
			other = append(other, defaultNote(p))
		}
	}
	out := append(fit, other...)
	return out[:min(len(out), maxDefaults)]
}

func listHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
