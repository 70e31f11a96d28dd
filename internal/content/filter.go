package content

import (
	"strconv"
	"strings"
)

// Filter is the process's policy for third-party content: marking always,
// withholding too when a trusted list is configured (lockdown). It holds
// no mutable state and is safe for concurrent use.
type Filter struct {
	trusted map[int64]bool // nil without lockdown
}

// New returns the policy. With no trusted users, content is marked and
// shown; with some, lockdown withholds the content of everyone else (the
// logged-in account always counts as trusted).
func New(trusted []int64) *Filter {
	f := &Filter{}
	if len(trusted) > 0 {
		f.trusted = make(map[int64]bool, len(trusted))
		for _, id := range trusted {
			f.trusted[id] = true
		}
	}
	return f
}

// Lockdown reports whether content from untrusted authors is withheld. A
// nil Filter marks only.
func (f *Filter) Lockdown() bool { return f != nil && f.trusted != nil }

// TrustedUsers is how many distinct users the trusted list names.
func (f *Filter) TrustedUsers() int {
	if f == nil {
		return 0
	}
	return len(f.trusted)
}

// markerKey is the member added to every item that carries third-party
// content.
const markerKey = "third_party"

// maxDepth bounds how deep forwards may nest before the filter stops
// reading them (SnowLuma allows three levels); deeper content counts as
// unreadable.
const maxDepth = 8

// Why something was withheld, as the marker's "withheld" says it.
const (
	ReasonUntrusted      = "untrusted_author"
	ReasonUnknownAuthor  = "unknown_author"
	ReasonAccountUnknown = "account_unknown"
	ReasonNested         = "nested_untrusted"
	ReasonForwardNode    = "forward_node"
	ReasonUnreadable     = "unreadable"
)

// explanations say, for each reason, why lockdown withholds something: in
// the placeholder that replaces it and wherever a refusal repeats it.
var explanations = map[string]string{
	ReasonUntrusted:      "the author is not a trusted user",
	ReasonUnknownAuthor:  "the author could not be identified",
	ReasonAccountUnknown: "the author is not a trusted user, and the logged-in account is not known yet",
	ReasonNested:         "it embeds content whose author is not trusted or cannot be established",
	ReasonForwardNode:    "a forwarded message's sender is whatever the forward's builder wrote, so its author cannot be established",
	ReasonUnreadable:     "its shape could not be read",
}

// Explain says why lockdown withholds for a reason the marker's
// "withheld" names.
func Explain(reason string) string { return explanations[reason] }

// placeholders replace withheld values: short, and saying why.
var placeholders = func() map[string][]byte {
	m := make(map[string][]byte, len(explanations))
	for r, why := range explanations {
		m[r] = quote("[withheld by lockdown: " + why + "]")
	}
	return m
}()

func quote(s string) []byte { return strconv.AppendQuote(nil, s) }

// screen is one pass of the filter over one document, for one account.
type screen struct {
	f       *Filter
	account *account
	why     *string // the first reason anything was withheld for; nil when nobody asks
}

// withhold records that something is withheld for reason and returns its
// placeholder.
func (s screen) withhold(reason string) []byte {
	if s.why != nil && *s.why == "" {
		*s.why = reason
	}
	return placeholders[reason]
}

// account is the logged-in account as one pass knows it: looked up once,
// and only when an item with content needs it (a result without any,
// such as a failure, costs no lookup). 0 means not known.
type account struct {
	id     int64
	lookup func() int64
}

// known returns the account id, looking it up on first use.
func (a *account) known() int64 {
	if a.lookup != nil {
		a.id, a.lookup = a.lookup(), nil
	}
	return a.id
}

// author is who an item names as its author.
type author struct {
	ids   []int64 // the non-zero ids named, in the shape's order
	known bool    // at least one id, and every author member readable
}

// one is the one person every author member names. An item that names
// several people (a poke's poker and poked, or a key written twice) has
// no one author: the words may be any of theirs.
func (a author) one() (int64, bool) {
	if len(a.ids) == 0 {
		return 0, false
	}
	for _, id := range a.ids[1:] {
		if id != a.ids[0] {
			return 0, false
		}
	}
	return a.ids[0], true
}

// authorOf reads the author members paths of an item (a repeated key counts
// each time, at either level, since readers disagree on which one wins).
func (s screen) authorOf(item []byte, ms []member, paths []string) author {
	a := author{known: true}
	for _, path := range paths {
		head, rest, nested := strings.Cut(path, ".")
		for _, m := range ms {
			if string(m.key) != head {
				continue
			}
			v := item[m.start:m.end]
			if !nested {
				a.add(v)
				continue
			}
			inner, ok := members(v)
			if !ok {
				if !absent(v) {
					a.known = false
				}
				continue
			}
			for _, im := range inner {
				if string(im.key) == rest {
					a.add(v[im.start:im.end])
				}
			}
		}
	}
	a.known = a.known && len(a.ids) > 0
	return a
}

// add counts one author member's value.
func (a *author) add(v []byte) {
	id, ok := qqID(v)
	switch {
	case !ok:
		a.known = false
	case id != 0:
		a.ids = append(a.ids, id)
	}
}

// own reports whether the account itself wrote the item.
func (s screen) own(a author) bool {
	if !a.known {
		return false
	}
	self := s.account.known()
	if self == 0 {
		return false
	}
	for _, id := range a.ids {
		if id != self {
			return false
		}
	}
	return true
}

// trusted reports whether the item's content may be shown in lockdown, or
// why not: everyone it names must be a trusted user or the account, and
// when they are not, words naming several people have an unknown author.
func (s screen) trusted(a author, sh *shape) (bool, string) {
	switch {
	case sh.claims:
		return false, ReasonForwardNode
	case s.own(a):
		return true, ""
	case !a.known:
		return false, ReasonUnknownAuthor
	}
	self := s.account.known()
	for _, id := range a.ids {
		if s.f.trusted[id] || id == self && self != 0 {
			continue
		}
		switch _, one := a.one(); {
		case self == 0:
			return false, ReasonAccountUnknown
		case !one:
			return false, ReasonUnknownAuthor
		}
		return false, ReasonUntrusted
	}
	return true, ""
}

// unreadable is what becomes of a value where an item should be but none
// can be read: withheld whole in lockdown, left alone otherwise. Null is
// no item at all.
func (s screen) unreadable(v []byte) ([]byte, bool) {
	if absent(v) || !s.f.Lockdown() {
		return v, false
	}
	return s.withhold(ReasonUnreadable), true
}
