package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// captured reads a real command's output, saved as `benchtable -raw` saves
// it (the first line is the command). timeout.txt keeps only the first 30
// lines of its goroutine dump; failed.txt is a soak run with its goroutine
// tolerance set below zero, to capture a real failure.
func captured(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}

func TestParseReadsEveryFigureOfRealOutput(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		bench string
		unit  string
		want  float64
	}{
		{"ns/op of a sub-benchmark, GOMAXPROCS suffix dropped", "coldstart.txt", "BenchmarkColdStart/write", "ns/op", 110346521},
		{"a custom metric beside ns/op", "idlerss.txt", "BenchmarkIdleRSS/2025-11-25", "rss-KiB", 20516},
		{"a sub-benchmark named with a version", "toolslist.txt", "BenchmarkBinaryToolsList/2026-07-28", "reply-bytes", 21264},
		{"MB/s from b.SetBytes", "download.txt", "BenchmarkDownload/512MiB", "MB/s", 0},
		{"a custom metric after MB/s", "download.txt", "BenchmarkDownload/64MiB", "peak-rss-MiB", 0},
		{"a sub-benchmark named with key=value", "eventflood.txt", "BenchmarkEventFlood/events=200000", "events/s", 0},
		{"many custom metrics, with log lines after the result", "soak.txt", "BenchmarkSoak", "goroutines-after", 0},
		{"fractional figures", "background.txt", "BenchmarkBackgroundDownload/task", "polls/op", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := parse(captured(t, tt.file))
			got, err := out.value(tt.bench, tt.unit)
			require.NoError(t, err)
			if tt.want != 0 {
				assert.Equal(t, tt.want, got)
			} else {
				assert.Positive(t, got)
			}
			assert.Empty(t, out.failures)
		})
	}
}

func TestParseKeepsEveryLineOfARepeatedBenchmark(t *testing.T) {
	out := parse(captured(t, "count3.txt"))
	r := out.results["BenchmarkSearchKeywords"]
	require.NotNil(t, r)
	assert.Equal(t, 3, r.runs)
	lo, hi, err := spread(out, "BenchmarkSearchKeywords", "ns/op")
	require.NoError(t, err)
	med, err := out.value("BenchmarkSearchKeywords", "ns/op")
	require.NoError(t, err)
	assert.LessOrEqual(t, lo, med)
	assert.LessOrEqual(t, med, hi)
	assert.Len(t, r.metrics["allocs/op"], 3, "b.ReportAllocs figures are read too")
}

func TestParseReportsFailures(t *testing.T) {
	tests := []struct {
		name string
		file string
		want string
	}{
		{"a timed-out run panics", "timeout.txt", "panic: test timed out"},
		{"a failed benchmark names itself and testify's error, not its logs", "failed.txt", `BenchmarkSoak: "11" is not less than or equal to "10"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := parse(captured(t, tt.file))
			require.NotEmpty(t, out.failures)
			assert.Contains(t, out.failures[0], tt.want)
		})
	}
}

func TestValueSaysWhatIsMissing(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		bench string
		unit  string
		want  string
	}{
		{"a pattern that matched nothing", "nomatch.txt", "BenchmarkNoSuch", "ns/op", "BenchmarkNoSuch printed no result"},
		{"a benchmark without that metric", "coldstart.txt", "BenchmarkColdStart/docs", "rss-KiB", "BenchmarkColdStart/docs reported no rss-KiB"},
		{"a parent benchmark has no line of its own", "coldstart.txt", "BenchmarkColdStart", "ns/op", "BenchmarkColdStart printed no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(captured(t, tt.file)).value(tt.bench, tt.unit)
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestParseIgnoresLinesThatOnlyLookLikeResults(t *testing.T) {
	out := parse("BenchmarkX-2   \t 10\t 5 ns/op\t oops\n" + // odd field count
		"BenchmarkY\n" + // a name printed alone before its logs
		"    bench_test.go:12: BenchmarkZ-2 10 5 ns/op\n") // a log line
	assert.Empty(t, out.results)
}

// spread is the lowest and highest of a figure a row run with -count saw.
func spread(o output, name, unit string) (lo, hi float64, err error) {
	if _, err := o.value(name, unit); err != nil {
		return 0, 0, err
	}
	vs := o.results[name].metrics[unit]
	return slices.Min(vs), slices.Max(vs), nil
}
