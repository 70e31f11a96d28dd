package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// output is what one `go test -bench` command printed, parsed: each
// benchmark's figures by unit, and the failures it reported.
type output struct {
	results  map[string]*result
	names    []string // the results' names, in the order they were printed
	failures []string // "--- FAIL: …" lines, each with its first message line
}

// result is one benchmark's figures: every unit it printed (ns/op, MB/s,
// B/op and the custom units of b.ReportMetric), one value per line printed
// (more than one with -count).
type result struct {
	name    string // without the -GOMAXPROCS suffix
	runs    int
	metrics map[string][]float64
}

// benchLine is a result line: name, iterations, then value/unit pairs.
var benchLine = regexp.MustCompile(`^(Benchmark\S*?)(?:-\d+)?\s+(\d+)((?:\s+[-+0-9.eE]+ \S+)+)\s*$`)

// parse reads the standard benchmark output. Lines it does not know
// (logs, pkg:, PASS) are ignored; a result line it cannot read is ignored
// too, so that a figure built on it says it is missing rather than wrong.
func parse(text string) output {
	out := output{results: map[string]*result{}}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		line = strings.TrimRight(line, "\r")
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: "); ok {
			out.failures = append(out.failures, strings.TrimSpace(rest)+why(lines[i+1:]))
			continue
		}
		if strings.HasPrefix(line, "panic: ") {
			out.failures = append(out.failures, line)
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		fields := strings.Fields(m[3])
		figures := map[string]float64{}
		ok := len(fields)%2 == 0
		for k := 0; ok && k < len(fields); k += 2 {
			v, err := strconv.ParseFloat(fields[k], 64)
			ok = err == nil
			figures[fields[k+1]] = v
		}
		if !ok {
			continue
		}
		r := out.results[m[1]]
		if r == nil {
			r = &result{name: m[1], metrics: map[string][]float64{}}
			out.results[m[1]] = r
			out.names = append(out.names, m[1])
		}
		r.runs++
		for unit, v := range figures {
			r.metrics[unit] = append(r.metrics[unit], v)
		}
	}
	return out
}

// why picks the message of a failure from the indented lines that follow
// its "--- FAIL:" line: testify's "Error:" line when there is one (the
// lines before it are often the benchmark's own logs), else the first.
func why(rest []string) string {
	var first string
	for _, l := range rest {
		if !strings.HasPrefix(l, "    ") {
			break
		}
		t := strings.TrimSpace(l)
		if e, ok := strings.CutPrefix(t, "Error:"); ok {
			return ": " + strings.TrimSpace(e)
		}
		if first == "" {
			first = t
		}
	}
	if first == "" {
		return ""
	}
	return ": " + first
}

// value is the median of a benchmark's figure in unit over its lines, or
// an error that says which is missing.
func (o output) value(name, unit string) (float64, error) {
	r, ok := o.results[name]
	if !ok {
		return 0, fmt.Errorf("%s printed no result", name)
	}
	vs := r.metrics[unit]
	if len(vs) == 0 {
		return 0, fmt.Errorf("%s reported no %s", name, unit)
	}
	return median(vs), nil
}

// under is the names printed under a benchmark (its sub-benchmarks, one
// level down), in the order they were printed, without the prefix.
func (o output) under(parent string) []string {
	var subs []string
	for _, name := range o.names {
		if sub, ok := strings.CutPrefix(name, parent+"/"); ok && !strings.Contains(sub, "/") {
			subs = append(subs, sub)
		}
	}
	return subs
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
