package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDurationPicksTheUnitAndThreeSignificantDigits(t *testing.T) {
	tests := []struct {
		name string
		ns   float64
		want string
	}{
		{"nanoseconds stay whole", 312, "312 ns"},
		{"microseconds keep one decimal", 45312, "45.3 µs"},
		{"milliseconds keep two decimals", 1_031_952, "1.03 ms"},
		{"tens of milliseconds keep one decimal", 20_461_068, "20.5 ms"},
		{"seconds", 20_461_068_058, "20.5 s"},
		{"zero", 0, "0 ns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, duration(tt.ns))
		})
	}
}

func TestThousandsGroupsDigits(t *testing.T) {
	tests := []struct {
		name string
		v    float64
		want string
	}{
		{"below a thousand", 999, "999"},
		{"a thousand", 1000, "1,000"},
		{"rounded before grouping", 81234.6, "81,235"},
		{"millions", 1234567, "1,234,567"},
		{"negative", -4500, "-4,500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, thousands(tt.v))
		})
	}
}

func TestShellQuoteQuotesOnlyWhatAShellWouldChange(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		want string
	}{
		{"plain words stay bare", []string{"test", "-bench", "Upload", "./upload"}, "test -bench Upload ./upload"},
		{"an anchored empty pattern is quoted", []string{"-run", "^$"}, "-run '^$'"},
		{"an alternation is quoted", []string{"-bench", "A|B"}, "-bench 'A|B'"},
		{"a single quote survives", []string{"it's"}, `'it'\''s'`},
		{"an empty word is kept", []string{""}, "''"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, shellQuote(tt.argv))
		})
	}
}

func TestMarkdownKeepsEachCellInItsColumn(t *testing.T) {
	got := markdown([]line{
		{what: "a figure", figure: "1.03 ms vs 190 µs (5.4×)", command: "go test -run '^$' -bench 'A|B' ./e2e"},
		{what: "a failure", figure: "exit status 1; --- FAIL: BenchmarkX", failed: true, command: "go test ./x"},
	})
	assert.Equal(t, "| what | figure | command |\n|---|---|---|\n"+
		"| a figure | 1.03 ms vs 190 µs (5.4×) | `go test -run '^$' -bench 'A\\|B' ./e2e` |\n"+
		"| a failure | **no figure**: exit status 1; --- FAIL: BenchmarkX | `go test ./x` |\n", got)
}

func TestRatio(t *testing.T) {
	assert.Equal(t, "5.4×", ratio(1031952, 189910))
	assert.Equal(t, "n/a", ratio(1, 0), "no division by zero")
}
