package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/members"
)

// Unknown refuses a call whose params give a top-level key that SnowLuma
// neither declares nor reads raw for the action (Reads). The params stage
// and the input stage (before it asks the user, and for the answer) both
// call it, so every tool that runs an action refuses the same keys.
// SnowLuma's parser (defineAction.parse) drops such a key without a word,
// so the call could never do what was meant: a misspelt "nickname" for
// set_group_card leaves card at its default "" and clears the member's
// card. Only top-level keys are looked at; what is inside a param (message
// segments, forward nodes, news, headers, free-form values) is the param's.
//
// The refusal names at most maxNamed unknown keys (those with a param to
// offer first) and counts the rest, each with the params it may have meant
// (by meaning and by spelling, nearestParams), the action's parameter
// list, and, where a model would leave a key out, the defaults that
// leaving it out applies. Its size is bounded and its cost linear in the
// request: only maxExamined unknown keys are compared. Params that are not
// an object are left to the schema check, which says so.
func (a *Action) Unknown(params json.RawMessage) error {
	var (
		unknown []topKey // the first maxExamined, once each
		given   []string // the params the call gives
		count   int      // every unknown key (a repeat past the first maxExamined counts again)
	)
	scanKeys(params, func(key []byte, kind byte) {
		if name, ok := a.readsKey(key); ok {
			if !listHas(given, name) {
				given = append(given, name)
			}
			return
		}
		if len(unknown) == maxExamined {
			count++
			return
		}
		for _, u := range unknown {
			if u.name == string(key) {
				return
			}
		}
		count++
		unknown = append(unknown, topKey{name: string(key), kind: kind})
	})
	if count == 0 {
		return nil
	}
	named := a.pickNamed(unknown)
	rest := count - len(named)
	var parts, swaps, left []string
	var leftKinds []byte
	for _, n := range named {
		part := quoteKey(n.name)
		if len(n.near) == 0 {
			left = append(left, part)
			leftKinds = append(leftKinds, n.kind)
			parts = append(parts, part)
			continue
		}
		parts = append(parts, part+" (did you mean "+strings.Join(n.near, " or ")+"?)")
		swap := n.near[0] + " in place of " + part
		if p := a.param(n.near[0]); p != nil && len(p.Default) > 0 {
			swap += " (" + defaultNote(p) + ")"
		}
		swaps = append(swaps, swap)
	}
	if rest > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", rest))
		left = append(left, fmt.Sprintf("the %d more", rest))
	}
	word := "parameter"
	if count > 1 {
		word = "parameters"
	}
	names := a.ParamNames()
	list := "it takes no parameters"
	if len(names) > 0 {
		list = "it reads only " + strings.Join(names, ", ")
	}
	err := fault.Errorf(fault.CodeInvalidArgument,
		"%s does not read the %s %s: SnowLuma drops a parameter it does not know without a word, so the call could not do what was meant, and nothing was sent; %s",
		a.Name, word, strings.Join(parts, ", "), list).Unsent()
	var next []string
	if len(swaps) > 0 {
		next = append(next, "Call again with "+strings.Join(swaps, ", "))
	}
	if len(left) > 0 {
		leave := "leave out " + strings.Join(left, " and ") + ", or use the parameters you meant"
		if len(swaps) == 0 {
			leave = "Leave out " + strings.Join(left, " and ") + ", or use one of the parameters " + a.Name + " reads"
		}
		if d := a.defaultsLeftOut(given, leftKinds); len(d) > 0 {
			leave += "; a parameter left out takes its default: " + strings.Join(d, "; ")
		}
		next = append(next, leave)
	}
	return err.Then(fmt.Sprintf("%s (get_action %s says what each parameter means); nothing was sent, so nothing needs checking first.", strings.Join(next, "; "), a.Name))
}

// maxNamed bounds the unknown keys a refusal names; maxExamined bounds
// those compared with the action's params to find which to name. Both
// keep a request of 100,000 keys answered in a few lines, at a cost
// linear in the request.
const (
	maxNamed    = 3
	maxExamined = 32
)

// namedKey is an unknown key the refusal names, with the params offered.
type namedKey struct {
	name string
	kind byte
	near []string
}

// pickNamed chooses the keys to name: of the first maxExamined unknown
// keys, those with a param to offer first, then the others, in the order
// given, at most maxNamed in all.
func (a *Action) pickNamed(unknown []topKey) []namedKey {
	var with, without []namedKey
	for _, k := range unknown {
		n := namedKey{name: k.name, kind: k.kind, near: a.nearestParams(k.name, k.kind)}
		if len(n.near) > 0 {
			with = append(with, n)
		} else {
			without = append(without, n)
		}
	}
	out := append(with, without...)
	return out[:min(len(out), maxNamed)]
}

// quoteKey quotes a key for a message, cut shorter than fault.Quote cuts
// a value: a refusal names several, and no parameter name is this long.
func quoteKey(k string) string {
	head, cut := fault.Prefix(k, maxKey)
	if !cut {
		return strconv.Quote(k)
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(head), len(k))
}

// scanKeys calls fn with each top-level key of a JSON object, in order,
// and the first byte of its value; nothing when params is not an object
// or not valid JSON (the schema check says what is wrong). It scans the
// bytes instead of decoding them (members.Each): it runs on every call,
// and a decoder copied every value (a whole message) to skip it. A key is
// passed as the bytes between its quotes, so a request of many keys
// allocates nothing for those the refusal does not name; only an escaped
// key is decoded.
func scanKeys(params json.RawMessage, fn func(key []byte, kind byte)) {
	if !members.Valid(params) {
		return
	}
	members.Each(params, func(key, value []byte) bool {
		fn(key, value[0])
		return true
	})
}

// topKey is a top-level key and the first byte of its value, which says
// its JSON kind: '"' a string, 't' or 'f' a bool, '{' an object, '[' an
// array, 'n' null, anything else a number.
type topKey struct {
	name string
	kind byte
}
