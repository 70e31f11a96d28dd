package content

import (
	"bytes"
	"strconv"
)

// item rewrites one item of shape sh: unchanged when it carries no content
// or the account wrote it; marked when it is shown; its content replaced
// by placeholders when lockdown withholds it. withheld reports whether
// anything in it was withheld.
func (s screen) item(b []byte, sh *shape, depth int) (out []byte, withheld bool) {
	if depth > maxDepth {
		return s.unreadable(b)
	}
	if len(b) > 0 && b[0] == '"' && len(sh.authors) == 0 {
		return s.text(b)
	}
	ms, ok := members(b)
	if !ok {
		return s.unreadable(b)
	}
	return s.itemOf(b, ms, sh, depth)
}

// text is what becomes of an item of a shape that names no author when it
// is a bare string (a rendered card or a raw reply that is the whole
// result): it names no one, so lockdown withholds it; without lockdown it
// is shown as it is, since a string has nowhere to carry a marker.
func (s screen) text(b []byte) ([]byte, bool) {
	if !s.f.Lockdown() {
		return b, false
	}
	return s.withhold(ReasonUnknownAuthor), true
}

// itemOf is item over members already split. Each member that is not
// metadata is judged by its author: the item's, or, for a member the shape
// names in fields, its own.
func (s screen) itemOf(b []byte, ms []member, sh *shape, depth int) (out []byte, withheld bool) {
	if !hasContent(b, ms, sh) {
		return b, false
	}
	lock := s.f.Lockdown()
	who := s.authorOf(b, ms, sh.authors)
	itemOK, itemWhy := true, ""
	if lock {
		itemOK, itemWhy = s.trusted(who, sh)
	}
	j := judge{s: s, sh: sh, b: b, ms: ms, lock: lock, itemOK: itemOK, itemWhy: itemWhy,
		mk: mark{who: who, claimed: sh.claims}}
	vals := make([][]byte, len(ms))
	for i, m := range ms {
		v := b[m.start:m.end]
		switch part := sh.part(m.key); {
		case part != nil:
			vals[i] = j.part(v, m.key, part)
		case sh.keeps(m.key), itemOK && sh.body != "" && string(m.key) == sh.body:
		default:
			vals[i] = j.of(m.key, nil, v)
		}
	}
	mk := j.mk
	if !itemOK {
		mk.withheld = itemWhy
	}
	var nested, nestedWithheld bool
	for i, m := range ms {
		if itemOK && sh.body != "" && string(m.key) == sh.body {
			changed, n, w := s.body(b[m.start:m.end], depth)
			nested, nestedWithheld = nested || n, nestedWithheld || w
			if !bytes.Equal(changed, b[m.start:m.end]) {
				vals[i] = changed
			}
		}
	}
	if nestedWithheld {
		// A CQ-code rendering beside the body (raw_message) may spell out
		// what the body's nodes withheld.
		mk.withheld = ReasonNested
		for i, m := range ms {
			if vals[i] == nil && !sh.keeps(m.key) && string(m.key) != sh.body && b[m.start] == '"' {
				vals[i] = s.withhold(ReasonNested)
			}
		}
	}
	own := !sh.claims && s.own(who)
	if own && !nested && !j.foreign {
		return b, false
	}
	mk.trusted, mk.nested = lock && itemOK && !own, nested
	return rebuild(b, ms, vals, mk.bytes()), mk.withheld != ""
}

// judge decides, for the members of one item that are not metadata,
// whether lockdown shows each: by the item's author, or, for a member the
// shape names in fields, by that member's own, which it records in the
// marker.
type judge struct {
	s       screen
	sh      *shape
	b       []byte
	ms      []member
	lock    bool
	itemOK  bool
	itemWhy string
	mk      mark
	foreign bool // a member by someone other than the account holds words
}

// of is the placeholder for the member key (or, with inner set, the
// member inner of the member key) holding v, nil to show it.
func (j *judge) of(key, inner []byte, v []byte) []byte {
	paths, own := j.sh.fieldOf(key, inner)
	if !own {
		if j.itemOK {
			return nil
		}
		return j.s.withhold(j.itemWhy)
	}
	if wordless(v) {
		return nil
	}
	fa := j.s.authorOf(j.b, j.ms, paths)
	name := string(key)
	if inner != nil {
		name += "." + string(inner)
	}
	j.mk.fields = append(j.mk.fields, fieldMark{key: name, who: fa})
	j.foreign = j.foreign || !j.s.own(fa)
	if ok, why := j.s.trusted(fa, j.sh); j.lock && !ok {
		if j.mk.withheld == "" {
			j.mk.withheld = why
		}
		// Not the item's words but a name about it (a card, a group's
		// name): Withholds does not count it, as a copy of the item never
		// carries it.
		return placeholders[why]
	}
	return nil
}

// wordless reports whether a member a shape names in fields holds no
// words at all (missing, null or ""), so there is no one to judge.
func wordless(v []byte) bool { return absent(v) || string(v) == `""` }

// hasContent reports whether an item has any member that is not metadata.
func hasContent(b []byte, ms []member, sh *shape) bool {
	for _, m := range ms {
		if part := sh.part(m.key); part != nil {
			if partContent(b[m.start:m.end], part) {
				return true
			}
			continue
		}
		if !sh.keeps(m.key) {
			return true
		}
	}
	return false
}

// partContent reports whether a member kept in part holds content: an
// inner member it does not keep, or, when it is no object, any value.
func partContent(v []byte, part map[string]bool) bool {
	if absent(v) {
		return false
	}
	inner, ok := members(v)
	if !ok {
		return true
	}
	for _, im := range inner {
		if !part[string(im.key)] {
			return true
		}
	}
	return false
}

// part judges the inner members of a member kept in part that it does
// not keep, each as its dotted name ("sender.card"): every other byte
// stays as it was (nil when nothing changes). A value that is no object
// is judged whole, by its own name.
func (j *judge) part(v, name []byte, part map[string]bool) []byte {
	if absent(v) || j.itemOK && !j.sh.mayNameField(name, v) {
		// Shown whole, as nothing in it has an author of its own: no
		// need to take it apart.
		return nil
	}
	inner, ok := members(v)
	if !ok {
		return j.of(name, nil, v)
	}
	var vals [][]byte // made at the first change
	for i, im := range inner {
		if part[string(im.key)] {
			continue
		}
		if w := j.of(name, im.key, v[im.start:im.end]); w != nil {
			if vals == nil {
				vals = make([][]byte, len(inner))
			}
			vals[i] = w
		}
	}
	if vals == nil {
		return nil
	}
	return splice(v, spans(inner), vals)
}

// body rewrites the message body of an item being shown: the forward
// nodes in a segment array are items of their own. A CQ-code string that
// inlines nodes cannot be taken apart safely, so lockdown withholds it.
func (s screen) body(v []byte, depth int) (out []byte, nested, withheld bool) {
	switch {
	case len(v) > 0 && v[0] == '"':
		if !inlinesNodes(v) {
			return v, false, false
		}
		if s.f.Lockdown() {
			return s.withhold(ReasonNested), true, true
		}
		return v, true, false
	case len(v) > 0 && v[0] == '{':
		return s.segment(v, depth)
	}
	spans, ok := elements(v)
	if !ok {
		return v, false, false
	}
	vals := make([][]byte, len(spans))
	for i, sp := range spans {
		seg, n, w := s.segment(v[sp[0]:sp[1]], depth)
		nested, withheld = nested || n, withheld || w
		if n {
			vals[i] = seg
		}
	}
	return splice(v, spans, vals), nested, withheld
}

// inlinesNodes reports whether a CQ-code string carries forward nodes
// with their content written out.
func inlinesNodes(q []byte) bool {
	return (bytes.Contains(q, []byte("[CQ:node")) || bytes.Contains(q, []byte("[CQ:forward"))) &&
		bytes.Contains(q, []byte("content="))
}

// segment rewrites one message segment: a node segment with inline content
// is a node item; a forward segment with inline content holds messages.
// Every other segment is part of its message and stays as it is.
func (s screen) segment(seg []byte, depth int) (out []byte, nested, withheld bool) {
	if !bytes.Contains(seg, []byte(`"content"`)) {
		// Only a segment with a content member can carry a node; the
		// check spares every ordinary segment a parse.
		return seg, false, false
	}
	ms, ok := members(seg)
	if !ok {
		return seg, false, false
	}
	var typ, data []byte
	di := -1
	for i, m := range ms {
		switch string(m.key) {
		case "type":
			typ = seg[m.start:m.end]
		case "data":
			data, di = seg[m.start:m.end], i
		}
	}
	content, has := find(data, "content")
	if di < 0 || !has || absent(content) {
		return seg, false, false
	}
	var changed []byte
	switch string(typ) {
	case `"node"`:
		changed, withheld = s.item(data, shapes["node"], depth+1)
	case `"forward"`:
		var inner []byte
		inner, withheld = s.each(content, shapes["forward_node"], depth+1)
		changed = replace(data, "content", inner)
	default:
		return seg, false, false
	}
	vals := make([][]byte, len(ms))
	vals[di] = changed
	return splice(seg, spans(ms), vals), true, withheld
}

// each rewrites every element of an array as an item of shape sh.
func (s screen) each(arr []byte, sh *shape, depth int) (out []byte, withheld bool) {
	if absent(arr) {
		return arr, false
	}
	sp, ok := elements(arr)
	if !ok {
		return s.unreadable(arr)
	}
	vals := make([][]byte, len(sp))
	for i, e := range sp {
		var w bool
		vals[i], w = s.item(arr[e[0]:e[1]], sh, depth)
		withheld = withheld || w
	}
	return splice(arr, sp, vals), withheld
}

// mark is what the "third_party" member says: who wrote the item (null
// when it names no one, or several people), or, for a forward node, who
// its builder claims wrote it, with the author null; who wrote each
// member that is not the author's (field_authors); whether that author
// is trusted (lockdown only), whether it nests others' messages, and why
// something was withheld.
type mark struct {
	who      author
	fields   []fieldMark
	claimed  bool
	trusted  bool
	nested   bool
	withheld string
}

// bytes writes the member.
func (m mark) bytes() []byte {
	b := []byte(`"` + markerKey + `":{"author":`)
	if m.claimed {
		b = append(b, `null,"claimed_author":`...)
	}
	b = m.who.append(b)
	if len(m.fields) > 0 {
		b = append(b, `,"field_authors":{`...)
		for i, f := range m.fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, f.key)
			b = append(b, ':')
			b = f.who.append(b)
		}
		b = append(b, '}')
	}
	if m.trusted {
		b = append(b, `,"trusted":true`...)
	}
	if m.nested {
		b = append(b, `,"nested":true`...)
	}
	if m.withheld != "" {
		b = append(b, `,"withheld":`...)
		b = strconv.AppendQuote(b, m.withheld)
	}
	return append(b, '}')
}

// fieldMark is who wrote one member of an item whose words are not the
// item's author's.
type fieldMark struct {
	key string
	who author
}

// append writes the one person an author names, or null.
func (a author) append(b []byte) []byte {
	if id, ok := a.one(); ok {
		return strconv.AppendInt(b, id, 10)
	}
	return append(b, "null"...)
}

// rebuild writes an object again: each member with vals[i] in place of its
// value where set, any member already called third_party left out, and
// the marker last.
func rebuild(obj []byte, ms []member, vals [][]byte, marker []byte) []byte {
	out := make([]byte, 0, len(obj)+len(marker)+16)
	out = append(out, '{')
	for i, m := range ms {
		if string(m.key) == markerKey {
			continue
		}
		out = append(out, obj[m.keyStart:m.start]...)
		if vals[i] != nil {
			out = append(out, vals[i]...)
		} else {
			out = append(out, obj[m.start:m.end]...)
		}
		out = append(out, ',')
	}
	out = append(out, marker...)
	return append(out, '}')
}

// splice replaces the spans of b whose vals are set, keeping every other
// byte; with nothing set it returns b itself.
func splice(b []byte, sp [][2]int, vals [][]byte) []byte {
	var out []byte
	last := 0
	for i, v := range vals {
		if v == nil {
			continue
		}
		out = append(out, b[last:sp[i][0]]...)
		out = append(out, v...)
		last = sp[i][1]
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// spans are the value spans of members.
func spans(ms []member) [][2]int {
	out := make([][2]int, len(ms))
	for i, m := range ms {
		out[i] = [2]int{m.start, m.end}
	}
	return out
}

// replace sets the value of obj's member key, keeping every other byte.
func replace(obj []byte, key string, v []byte) []byte {
	ms, ok := members(obj)
	if !ok {
		return obj
	}
	vals := make([][]byte, len(ms))
	for i, m := range ms {
		if string(m.key) == key {
			vals[i] = v
		}
	}
	return splice(obj, spans(ms), vals)
}
