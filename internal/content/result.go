package content

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/content/spot"
)

// ErrUnreadable is returned for a result that is not a JSON document, so
// its content cannot be told apart from its metadata.
var ErrUnreadable = errors.New("the result is not a JSON document")

// Result marks, and in lockdown withholds, the third-party content of an
// action's OneBot envelope at the spots the catalog declares for the
// action. self returns the logged-in account, 0 when it is not known (then
// nothing counts as the account's own); it is called at most once, and
// only when an item with content is found. Bytes outside the items it
// rewrites stay as they were.
func (f *Filter) Result(envelope []byte, spots []spot.Spot, self func() int64) ([]byte, error) {
	return f.result(envelope, spots, screen{f: f, account: &account{lookup: self}})
}

// Withholds reports why lockdown would withhold something of what
// Result would show of envelope: the reason the first withheld value in
// it is marked with, or "" when nothing would be (always, outside
// lockdown). A caller about to repeat a result's words elsewhere asks
// this first: what lockdown keeps from the agent must not come back as
// words of the account's. A member withheld under its own author (a
// card, a group's name) is a name about an item, not its words, and a
// copy of the item never carries it, so it is not counted.
func (f *Filter) Withholds(envelope []byte, spots []spot.Spot, self func() int64) (string, error) {
	var why string
	_, err := f.result(envelope, spots, screen{f: f, account: &account{lookup: self}, why: &why})
	return why, err
}

// result is Result's pass with the screen s.
func (f *Filter) result(envelope []byte, spots []spot.Spot, s screen) ([]byte, error) {
	if len(spots) == 0 {
		return envelope, nil
	}
	if !json.Valid(envelope) {
		return nil, ErrUnreadable
	}
	ms, ok := members(envelope)
	if !ok {
		// Not an envelope: no data, so nothing of anyone's.
		return envelope, nil
	}
	for i, m := range ms {
		if string(m.key) != "data" {
			continue
		}
		data := envelope[m.start:m.end]
		for _, spot := range spots {
			data, _ = s.at(data, steps(spot.At), shapes[spot.Shape], 0)
		}
		vals := make([][]byte, len(ms))
		vals[i] = data
		return splice(envelope, spans(ms), vals), nil
	}
	return envelope, nil
}

// step is one part of a spot's path: a member by name, or every element
// of an array.
type step struct {
	key  string
	each bool
}

// steps parses a spot's path: members joined by dots, "[]" after a name
// (or alone) for every element; "" is the data itself.
func steps(path string) []step {
	var out []step
	for _, part := range strings.Split(path, ".") {
		name, each := strings.CutSuffix(part, "[]")
		if name != "" {
			out = append(out, step{key: name})
		}
		if each {
			out = append(out, step{each: true})
		}
	}
	return out
}

// at rewrites the items that path leads to in v. A path that ends early
// (a member missing or null) leads to nothing; one that meets the wrong
// type leads to something unreadable.
func (s screen) at(v []byte, path []step, sh *shape, depth int) ([]byte, bool) {
	if sh == nil {
		return v, false
	}
	if len(path) == 0 {
		return s.item(v, sh, depth)
	}
	if absent(v) {
		return v, false
	}
	if path[0].each {
		sp, ok := elements(v)
		if !ok {
			return s.unreadable(v)
		}
		vals := make([][]byte, len(sp))
		withheld := false
		for i, e := range sp {
			var w bool
			vals[i], w = s.at(v[e[0]:e[1]], path[1:], sh, depth)
			withheld = withheld || w
		}
		return splice(v, sp, vals), withheld
	}
	ms, ok := members(v)
	if !ok {
		return s.unreadable(v)
	}
	for i, m := range ms {
		if string(m.key) == path[0].key {
			vals := make([][]byte, len(ms))
			var w bool
			vals[i], w = s.at(v[m.start:m.end], path[1:], sh, depth)
			return splice(v, spans(ms), vals), w
		}
	}
	return v, false
}
