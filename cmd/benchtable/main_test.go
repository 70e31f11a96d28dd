package main

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowFor finds a row of the real table by a word of its description.
func rowFor(t *testing.T, word string) row {
	t.Helper()
	for _, r := range rows {
		if strings.Contains(r.what, word) {
			return r
		}
	}
	require.FailNow(t, "no such row", word)
	return row{}
}

func TestMeasureGivesAFigureOrSaysWhyNot(t *testing.T) {
	tests := []struct {
		name       string
		row        string
		file       string
		err        error
		wantFailed bool
		want       string
	}{
		{"two sub-benchmarks in one figure", "cold start", "coldstart.txt", nil, false, "98.3 ms / 110 ms"},
		{"KiB shown as MiB for both generations", "idle RSS", "idlerss.txt", nil, false, "21.5 MiB / 20.0 MiB"},
		{"a ratio of two benchmarks", "direct HTTP call to the same", "query.txt", nil, false, ""},
		{"a command that failed gives its exit and first failure", "soak", "failed.txt", errors.New("exit status 1"), true, "exit status 1; BenchmarkSoak"},
		{"a command that timed out", "10,000 stored tasks", "timeout.txt", errors.New("exit status 2"), true, "exit status 2; panic: test timed out"},
		{"a clean exit without the figure is no figure", "keyword search", "nomatch.txt", nil, true, "BenchmarkSearchKeywords printed no result"},
		{"a clean exit with other benchmarks only", "soak", "coldstart.txt", nil, true, "BenchmarkSoak printed no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := measure(rowFor(t, tt.row), captured(t, tt.file), tt.err)
			assert.Equal(t, tt.wantFailed, l.failed, l.figure)
			if tt.want != "" {
				assert.Contains(t, l.figure, tt.want)
			}
			if !tt.wantFailed {
				assert.NotContains(t, l.figure, "NaN")
			}
		})
	}
}

// TestEveryRowReadsItsFiguresFromItsCapturedOutput: each row's figure
// comes out of output captured from its own command (keyed by the -bench
// pattern), and that capture names the row's package, so a row whose
// package moved needs a fresh capture. TestEveryRowNamesABenchmarkThatExists
// checks the rows against the code itself.
func TestEveryRowReadsItsFiguresFromItsCapturedOutput(t *testing.T) {
	files := map[string]string{
		"ColdStart": "coldstart.txt", "Start": "start.txt", "IdleRSS": "idlerss.txt", "BinaryToolsList": "toolslist.txt",
		"BinaryQueryActionRaw|BinaryGetActionRaw|DirectHTTPToFake": "query.txt", "PipelineQueryAction|DirectHTTP": "pipeline.txt",
		"SearchKeywords": "count3.txt", "SearchDefault|SearchMix|SearchLongQuery": "search.txt", "ToolDefinitionBytes|GetActionTextBytes": "modelbytes.txt", "ReadPanel": "panel.txt", "ReadPanelInMemory": "panelmem.txt", "Download": "download.txt", "Upload": "upload.txt",
		"Pace": "pace.txt", "Spend": "spend.txt", "Ingest16": "ingest.txt", "EventFlood": "eventflood.txt", "TaskWrites": "taskwrites.txt",
		"BackgroundDownload": "background.txt", "TasksGet10k": "tasksget.txt", "Open10k": "open10k.txt", "Soak": "soak.txt",
	}
	for _, r := range rows {
		t.Run(r.what, func(t *testing.T) {
			require.Equal(t, "-bench", r.args[3])
			file, ok := files[r.args[4]]
			require.True(t, ok, "no captured output for -bench %s", r.args[4])
			text := captured(t, file)
			pkg := strings.TrimPrefix(r.args[len(r.args)-1], "./")
			assert.Contains(t, text, "\npkg: "+module+"/"+pkg+"\n", "%s was captured from another package", file)
			l := measure(r, text, nil)
			assert.False(t, l.failed, l.figure)
		})
	}
}

func TestRunExitsNonzeroWhenAnyRowHasNoFigure(t *testing.T) {
	goCmd := func(args []string) (string, error) {
		if strings.Contains(strings.Join(args, " "), "ColdStart") {
			return "", errors.New("exit status 1")
		}
		return captured(t, "idlerss.txt"), nil
	}
	var stdout, progress bytes.Buffer
	code := run(&stdout, &progress, regexp.MustCompile("cold start|idle RSS"), "", goCmd)
	assert.Equal(t, 1, code)
	table := stdout.String()
	assert.Contains(t, table, "| **no figure**: exit status 1 |")
	assert.Contains(t, table, "21.5 MiB / 20.0 MiB", "the other rows still print")
	assert.Contains(t, progress.String(), "no figure: exit status 1")
}

func TestRunExitsZeroWhenEveryRowHasItsFigure(t *testing.T) {
	goCmd := func([]string) (string, error) { return captured(t, "idlerss.txt"), nil }
	var stdout, progress bytes.Buffer
	code := run(&stdout, &progress, regexp.MustCompile("idle RSS"), "", goCmd)
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout.String(), "`go test -run '^$' -bench IdleRSS -benchtime 20x ./e2e`", "the command column is exactly what ran")
	assert.Contains(t, stdout.String(), "the whole run took")
}

// TestTheModelBytesRowListsTheToolsTheBenchmarkPrinted: the row names
// each tool its benchmark measured, in the order printed, with no list of
// its own to go stale when handlers declares another tool.
func TestTheModelBytesRowListsTheToolsTheBenchmarkPrinted(t *testing.T) {
	text := captured(t, "modelbytes.txt")
	for _, r := range rows {
		if !strings.Contains(r.args[4], "ToolDefinitionBytes") {
			continue
		}
		l := measure(r, text, nil)
		assert.True(t, strings.HasPrefix(l.figure, "list_actions 688, get_action 360, search_actions 1,116, list_categories 180, get_runtime_info 484, "+
			"query_action 498, query_action_with_input 644, invoke_action 931, invoke_action_with_input 1,078, preview_message 844, all 6,823;"), l.figure)
		one := measure(r, strings.Replace(text, "BenchmarkToolDefinitionBytes/all", "BenchmarkToolDefinitionBytes/ping-2  1  5 ns/op  150.0 bytes\nBenchmarkToolDefinitionBytes/all", 1), nil)
		assert.Contains(t, one.figure, "preview_message 844, ping 150, all 6,823;", "a tool the benchmark prints is listed")
		return
	}
	t.Fatal("no row reads BenchmarkToolDefinitionBytes")
}
