package fake

// Param coercion as SnowLuma's action-kit does it (the f coercers and
// defineAction in packages/onebot/src/action-kit.ts): ints accept numbers
// or numeric strings (truncated), uint means an integer >= 1, a message ID
// is any non-zero integer (negatives valid), strings accept numbers and
// bools, unknown keys are always allowed, and a present but invalid value
// is an error, never silently replaced by a default.

import (
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

// raw returns the value of name, treating JSON null as absent.
func (p params) raw(name string) (json.RawMessage, bool) {
	v, ok := p[name]
	if !ok || strings.TrimSpace(string(v)) == "null" {
		return nil, false
	}
	return v, true
}

// int reads an integer; ok is false when the param is absent.
func (p params) int(name string, required bool) (n int64, ok bool, f *failure) {
	v, present := p.raw(name)
	if !present {
		if required {
			return 0, false, badParam(name, "is required")
		}
		return 0, false, nil
	}
	var num json.Number
	var s string
	switch {
	case json.Unmarshal(v, &num) == nil:
		s = num.String()
	case json.Unmarshal(v, &s) == nil:
		s = strings.TrimSpace(s)
	default:
		return 0, false, badParam(name, "expected an integer")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, badParam(name, "expected an integer")
	}
	return int64(math.Trunc(x)), true, nil
}

// uint reads an integer >= 1.
func (p params) uint(name string, required bool) (int64, bool, *failure) {
	n, ok, f := p.int(name, required)
	if f == nil && ok && n < 1 {
		return 0, false, badParam(name, "expected a positive integer")
	}
	return n, ok, f
}

// messageID reads a non-zero signed 32-bit message ID.
func (p params) messageID(name string, required bool) (int32, bool, *failure) {
	n, ok, f := p.int(name, required)
	switch {
	case f != nil || !ok:
		return 0, ok, f
	case n == 0:
		return 0, false, badParam(name, "must not be 0")
	case n < math.MinInt32 || n > math.MaxInt32:
		return 0, false, badParam(name, "expected a 32-bit integer")
	}
	return int32(n), true, nil
}

// str reads a string; numbers and bools are stringified.
func (p params) str(name string) (string, bool, *failure) {
	v, present := p.raw(name)
	if !present {
		return "", false, nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, true, nil
	}
	var num json.Number
	if json.Unmarshal(v, &num) == nil {
		return num.String(), true, nil
	}
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return strconv.FormatBool(b), true, nil
	}
	return "", false, badParam(name, "expected a string")
}

// count reads an integer >= 0.
func (p params) count(name string) (int64, bool, *failure) {
	n, ok, f := p.int(name, false)
	if f == nil && ok && n < 0 {
		return 0, false, badParam(name, "expected a non-negative integer")
	}
	return n, ok, f
}

// boolean reads a bool the way action-kit coerces one: true/false, 1/0 and
// the strings "true"/"false"/"1"/"0"/"yes"/"no"/"on"/"off".
func (p params) boolean(name string) (value, ok bool, f *failure) {
	v, present := p.raw(name)
	if !present {
		return false, false, nil
	}
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return b, true, nil
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		var num json.Number
		if json.Unmarshal(v, &num) != nil {
			return false, false, badParam(name, "expected a boolean")
		}
		s = num.String()
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true, true, nil
	case "false", "0", "no", "off":
		return false, true, nil
	}
	return false, false, badParam(name, "expected a boolean")
}
