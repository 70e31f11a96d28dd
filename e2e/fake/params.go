package fake

// Param coercion as SnowLuma's action-kit does it (the f coercers and
// defineAction in packages/onebot/src/action-kit.ts): integers accept a
// finite number or a numeric string, truncated, and say "expected <kind>"
// only for anything else, then "must not be 0" or "must be >= <min>" for a
// number out of bounds; strings accept numbers (stringified the JavaScript
// way) and bools; bools accept any number (non-zero is true) and a few
// words; unknown keys are always allowed, and a present but invalid value
// (null included) is an error, never silently replaced by a default.

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// failure is an action failure envelope: retcode and wording.
type failure struct {
	retcode int
	wording string
}

func badParam(field, reason string) *failure {
	return &failure{retcode: 1400, wording: field + ": " + reason}
}

func actionFailed(wording string) *failure { return &failure{retcode: 100, wording: wording} }

type params map[string]json.RawMessage

// raw returns the value of name, treating JSON null as absent: the message
// params, read with ?? (upload_forward_msg) or passed on as they are
// (f.message), are the only ones read this way.
func (p params) raw(name string) (json.RawMessage, bool) {
	v, ok := p[name]
	if !ok || strings.TrimSpace(string(v)) == "null" {
		return nil, false
	}
	return v, true
}

// present returns the value of name as defineAction's parse sees it: a
// key that is there is present, even when it holds null (which then fails
// every coercer below as not of its kind).
func (p params) present(name string) (json.RawMessage, bool) {
	v, ok := p[name]
	return v, ok
}

// jsValue is a param value as typeof sees it after JSON.parse: a string,
// a number (JSON.parse turns one beyond the float64 range into ±Infinity)
// or a boolean; anything else has kind 0.
type jsValue struct {
	kind  byte // 's', 'n', 'b' or 0
	str   string
	num   float64
	truth bool
}

func jsOf(v json.RawMessage) jsValue {
	v = bytes.TrimSpace(v)
	var j jsValue
	switch {
	case len(v) == 0:
	case v[0] == '"':
		if json.Unmarshal(v, &j.str) == nil {
			j.kind = 's'
		}
	case v[0] == 't' || v[0] == 'f':
		if json.Unmarshal(v, &j.truth) == nil {
			j.kind = 'b'
		}
	case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
		var n json.Number
		if json.Unmarshal(v, &n) == nil {
			j.num, _ = strconv.ParseFloat(n.String(), 64) // out of range is ±Inf, as in JSON.parse
			j.kind = 'n'
		}
	}
	return j
}

// intKind is intCore's IntOpts with the kind its "expected" wording names.
type intKind struct {
	what    string
	min     int64
	hasMin  bool
	nonZero bool
}

// The integer coercers of action-kit.ts the fake's actions use.
var (
	anyInt      = intKind{what: "an integer"}                               // f.int()
	naturalInt  = intKind{what: "an integer", min: 0, hasMin: true}         // f.int({ min: 0 }), f.duration()
	positiveInt = intKind{what: "an integer", min: 1, hasMin: true}         // f.int({ min: 1 })
	uintID      = intKind{what: "a positive integer", min: 1, hasMin: true} // f.uint(), f.groupId(), f.userId()
	messageID   = intKind{what: "a message id", nonZero: true}              // f.messageId()
)

// integer reads name as intCore does: ok is false when it is absent.
// Values beyond int64 (SnowLuma keeps them as doubles) saturate.
func (p params) integer(name string, required bool, k intKind) (n int64, ok bool, f *failure) {
	v, present := p.present(name)
	if !present {
		if required {
			return 0, false, badParam(name, "is required")
		}
		return 0, false, nil
	}
	j := jsOf(v)
	x := math.NaN()
	switch {
	case j.kind == 'n':
		x = j.num
	case j.kind == 's' && jsTrim(j.str) != "":
		x = jsToNumber(j.str)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, badParam(name, "expected "+k.what)
	}
	x = math.Trunc(x)
	switch {
	case k.nonZero && x == 0:
		return 0, false, badParam(name, "must not be 0")
	case k.hasMin && x < float64(k.min):
		return 0, false, badParam(name, "must be >= "+strconv.FormatInt(k.min, 10))
	case x >= math.MaxInt64:
		return math.MaxInt64, true, nil
	case x <= math.MinInt64:
		return math.MinInt64, true, nil
	}
	return int64(x), true, nil
}

// str reads a string as stringCore does: numbers and bools are
// stringified with String().
func (p params) str(name string) (string, bool, *failure) {
	v, present := p.present(name)
	if !present {
		return "", false, nil
	}
	switch j := jsOf(v); j.kind {
	case 's':
		return j.str, true, nil
	case 'n':
		return jsNumberString(j.num), true, nil
	case 'b':
		return strconv.FormatBool(j.truth), true, nil
	}
	return "", false, badParam(name, "expected a string")
}

// nonEmptyStr reads a required f.string({ allowEmpty: false }).
func (p params) nonEmptyStr(name string) (string, *failure) {
	s, ok, f := p.str(name)
	switch {
	case f != nil:
		return "", f
	case !ok:
		return "", badParam(name, "is required")
	case s == "":
		return "", badParam(name, "must not be empty")
	}
	return s, nil
}

// boolean reads a bool the way f.bool coerces one: true/false, any number
// (non-zero is true) and, trimmed and lower-cased, the strings
// "true"/"1"/"yes"/"on" and "false"/"0"/"no"/"off". (Go's ToLower differs
// from JavaScript's only on letters none of these words hold.)
func (p params) boolean(name string) (value, ok bool, f *failure) {
	v, present := p.present(name)
	if !present {
		return false, false, nil
	}
	switch j := jsOf(v); j.kind {
	case 'b':
		return j.truth, true, nil
	case 'n':
		return j.num != 0, true, nil
	case 's':
		switch strings.ToLower(jsTrim(j.str)) {
		case "true", "1", "yes", "on":
			return true, true, nil
		case "false", "0", "no", "off":
			return false, true, nil
		}
	}
	return false, false, badParam(name, "expected a boolean")
}
