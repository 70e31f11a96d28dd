package fake

// The JavaScript conversions SnowLuma's param coercers rest on
// (intCore, stringCore and f.bool in packages/onebot/src/action-kit.ts):
// String.prototype.trim, Number(string) and String(number). SnowLuma runs
// them on the value JSON.parse produced, so the fake runs them on the same
// value to answer exactly what SnowLuma answers.

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// isJSSpace reports whether r is one of JavaScript's WhiteSpace or
// LineTerminator code points, the set trim() strips and Number() skips.
// Unlike Go's unicode.IsSpace it holds U+FEFF and not U+0085.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

var (
	jsDecimal    = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)
	jsNonDecimal = regexp.MustCompile(`^0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)$`)
)

// jsToNumber is Number(s): surrounding whitespace is skipped, blank is 0,
// a decimal literal may carry a sign, a 0x/0o/0b integer may not, and
// anything else (Go's "inf", "1_000", "0x1p3", …) is NaN.
func jsToNumber(s string) float64 {
	t := jsTrim(s)
	switch t {
	case "":
		return 0
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	if jsNonDecimal.MatchString(t) {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[t[1]|0x20]
		n, _ := new(big.Int).SetString(t[2:], base)
		f, _ := new(big.Float).SetInt(n).Float64() // nearest double, as JS rounds
		return f
	}
	if jsDecimal.MatchString(t) {
		f, _ := strconv.ParseFloat(t, 64) // out of range is ±Inf or 0, as in JS
		return f
	}
	return math.NaN()
}

// jsNumberString is String(x), Number::toString of ECMA-262: the shortest
// digits that round-trip, written plainly for exponents from -7 to 20 and
// in exponent form (1e+21, 1.5e-7) outside them.
func jsNumberString(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0" // -0 too
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', -1, 64), "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	k, n := len(digits), e+1 // x = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	expSign := "+"
	if n-1 < 0 {
		expSign = "-"
	}
	frac := ""
	if k > 1 {
		frac = "." + digits[1:]
	}
	return sign + digits[:1] + frac + "e" + expSign + strconv.Itoa(abs(n-1))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
