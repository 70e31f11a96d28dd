package main

import (
	"fmt"
	"math"
	"strings"
)

// line is one row of the printed table: a figure or the reason there is
// none.
type line struct {
	what    string
	figure  string
	failed  bool
	command string
}

// markdown renders the table. Pipes inside cells are escaped, so a
// command's regexp alternation stays in its cell.
func markdown(lines []line) string {
	var b strings.Builder
	b.WriteString("| what | figure | command |\n|---|---|---|\n")
	for _, l := range lines {
		fig := l.figure
		if l.failed {
			fig = "**no figure**: " + fig
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` |\n", cell(l.what), cell(fig), cell(l.command))
	}
	return b.String()
}

// cell makes text safe inside one markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// shellQuote renders argv as one would type it, quoting the words a shell
// would otherwise change.
func shellQuote(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t'\"\\$|&;()<>*?[]^{}~`!#") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// duration renders nanoseconds with three significant digits in the unit
// that fits.
func duration(ns float64) string {
	switch {
	case ns < 1e3:
		return sig3(ns) + " ns"
	case ns < 1e6:
		return sig3(ns/1e3) + " µs"
	case ns < 1e9:
		return sig3(ns/1e6) + " ms"
	default:
		return sig3(ns/1e9) + " s"
	}
}

// sig3 prints v with three significant digits, without an exponent.
func sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	decimals := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	return fmt.Sprintf("%.*f", decimals, v)
}

// thousands prints a rounded count with commas between groups of three.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", math.Round(v))
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// mib renders a size already in MiB.
func mib(v float64) string { return fmt.Sprintf("%.1f MiB", v) }

// kibAsMiB renders a size given in KiB as MiB.
func kibAsMiB(v float64) string { return mib(v / 1024) }

// ratio renders a/b as "6.8×".
func ratio(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f×", a/b)
}
