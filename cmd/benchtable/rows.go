package main

import (
	"fmt"
	"slices"
	"strings"
)

// row is one line of the performance table: the go command it runs and
// how its figure is read from that command's output.
type row struct {
	what   string
	args   []string // after "go"
	figure func(r *reader) string
}

// bench is the argument list of `go test -run '^$' -bench pattern extra… pkg`.
func bench(pattern, pkg string, extra ...string) []string {
	args := []string{"test", "-run", "^$", "-bench", pattern}
	return append(append(args, extra...), pkg)
}

// reader reads figures for one row and keeps the first that is missing,
// so that the row reports it instead of printing a number.
type reader struct {
	out output
	err error
}

func (r *reader) get(name, unit string) float64 {
	if r.err != nil {
		return 0
	}
	v, err := r.out.value(name, unit)
	if err != nil {
		r.err = err
	}
	return v
}

// ns reads a benchmark's ns/op.
func (r *reader) ns(name string) float64 { return r.get(name, "ns/op") }

// rows is the table, in docs/performance.md's order. Benchtimes keep the whole run
// to a few minutes on the 2-core development VM.
var rows = []row{
	{"cold start to first `tools/list` (SDK client, 2026-07-28): docs / write mode",
		bench("ColdStart", "./e2e", "-benchtime", "20x"),
		func(r *reader) string {
			return duration(r.ns("BenchmarkColdStart/docs")) + " / " + duration(r.ns("BenchmarkColdStart/write"))
		}},
	{"the server's own start-up in process, from `main` to the answer of a first `tools/list` and out (no process start or package initialisation): docs / write mode",
		bench("Start", "./cmd/snowluma-mcp"),
		func(r *reader) string {
			return duration(r.ns("BenchmarkStart/docs")) + " / " + duration(r.ns("BenchmarkStart/write"))
		}},
	{"idle RSS after a few calls (write mode): 2026-07-28 / 2025-11-25",
		bench("IdleRSS", "./e2e", "-benchtime", "20x"),
		func(r *reader) string {
			return kibAsMiB(r.get("BenchmarkIdleRSS/2026-07-28", "rss-KiB")) + " / " + kibAsMiB(r.get("BenchmarkIdleRSS/2025-11-25", "rss-KiB"))
		}},
	{"`tools/list` round trip through the binary over stdio (bare client, write mode): 2026-07-28 / 2025-11-25",
		bench("BinaryToolsList", "./e2e", "-benchtime", "2s"),
		func(r *reader) string {
			return fmt.Sprintf("%s / %s (%s-byte reply)", duration(r.ns("BenchmarkBinaryToolsList/2026-07-28")),
				duration(r.ns("BenchmarkBinaryToolsList/2025-11-25")), thousands(r.get("BenchmarkBinaryToolsList/2026-07-28", "reply-bytes")))
		}},
	{"`query_action` through the binary over stdio (bare client) vs a direct HTTP call to the same loopback fake; a docs call (`get_action`, no HTTP) through the binary",
		bench("BinaryQueryActionRaw|BinaryGetActionRaw|DirectHTTPToFake", "./e2e", "-benchtime", "3s"),
		func(r *reader) string {
			bin, direct := r.ns("BenchmarkBinaryQueryActionRaw"), r.ns("BenchmarkDirectHTTPToFake")
			docs := r.ns("BenchmarkBinaryGetActionRaw")
			return fmt.Sprintf("%s vs %s (%s); docs call %s (%s)", duration(bin), duration(direct), ratio(bin, direct), duration(docs), ratio(docs, direct))
		}},
	{"`query_action` through the pipeline in process vs a direct HTTP call (loopback)",
		bench("PipelineQueryAction|DirectHTTP", "./cmd/snowluma-mcp/internal/server", "-benchtime", "2s"),
		func(r *reader) string {
			p, direct := r.ns("BenchmarkPipelineQueryAction"), r.ns("BenchmarkDirectHTTP")
			return fmt.Sprintf("%s vs %s (%s)", duration(p), duration(direct), ratio(p, direct))
		}},
	{"the pacing stage in process, over a bare handler: a call it does not pace / a delivery that need not wait (target read, both budgets charged)",
		bench("Pace", "./stages/pace"),
		func(r *reader) string {
			bare := r.ns("BenchmarkPace/bare")
			return "+" + duration(r.ns("BenchmarkPace/unpaced")-bare) + " / +" + duration(r.ns("BenchmarkPace/paced")-bare)
		}},
	{"one delivery's budgets (a Take and its Go, never waiting): in process / on the state every server of the account shares / the same with six servers racing (wall time per delivery of all six)",
		bench("Spend", "./internal/budget", "-benchtime", "2000x"),
		func(r *reader) string {
			return duration(r.ns("BenchmarkSpendLocal")) + " / " + duration(r.ns("BenchmarkSpendShared")) + " / " + duration(r.ns("BenchmarkSpendSharedSixRacing"))
		}},
	{"keyword search (`search_actions`, keywords mode, in process)",
		bench("SearchKeywords", "./catalog/search"),
		func(r *reader) string { return duration(r.ns("BenchmarkSearchKeywords")) }},
	{"a default-mode search that ranks (`发送群消息`, no summary holds it); the median request of a realistic mix of first calls, long ones carrying payloads (quotes, URLs, numbers, @mentions); the longest query `search_actions` takes, 4 KiB of Chinese no vocabulary word covers (keywords mode; in process)",
		bench("SearchDefault|SearchMix|SearchLongQuery", "./catalog/search"),
		func(r *reader) string {
			return duration(r.ns("BenchmarkSearchDefault")) + "; mix median " + duration(r.get("BenchmarkSearchMix", "median-ns/request")) +
				"; 4 KiB " + duration(r.ns("BenchmarkSearchLongQuery/4KiB"))
		}},
	{"what a model reads, in bytes: each write-mode tool's definition (name, description and input schema as compact JSON) and all of them; the text of `get_action` `send_group_msg`",
		bench("ToolDefinitionBytes|GetActionTextBytes", "./handlers", "-benchtime", "1x"),
		func(r *reader) string {
			var b strings.Builder
			// The tools are the benchmark's own sub-benchmarks, one per
			// tool handlers declares for write mode, so a new one shows.
			for _, tool := range slices.DeleteFunc(r.out.under("BenchmarkToolDefinitionBytes"), func(s string) bool { return s == "all" }) {
				fmt.Fprintf(&b, "%s %s, ", tool, thousands(r.get("BenchmarkToolDefinitionBytes/"+tool, "bytes")))
			}
			return fmt.Sprintf("%sall %s; get_action %s", b.String(), thousands(r.get("BenchmarkToolDefinitionBytes/all", "bytes")),
				thousands(r.get("BenchmarkGetActionTextBytes", "bytes")))
		}},
	{"`resources/read` of the panel through the binary over stdio (bare client): 2026-07-28 / 2025-11-25",
		bench("ReadPanel", "./e2e", "-benchtime", "200x"),
		func(r *reader) string {
			return duration(r.ns("BenchmarkReadPanel/2026-07-28")) + " / " + duration(r.ns("BenchmarkReadPanel/2025-11-25"))
		}},
	{"the same read in memory with the SDK client (2025-11-25; includes the client's decode)",
		bench("ReadPanelInMemory", "./cmd/snowluma-mcp/internal/server", "-benchtime", "100x"),
		func(r *reader) string { return duration(r.ns("BenchmarkReadPanelInMemory")) }},
	{"download to disk, 64 / 512 MiB: throughput; peak RSS of the whole benchmark process (loopback server included)",
		bench("Download", "./internal/snowluma/download", "-benchtime", "3x"),
		func(r *reader) string {
			return fmt.Sprintf("%.0f / %.0f MB/s; peak RSS %s / %s",
				r.get("BenchmarkDownload/64MiB", "MB/s"), r.get("BenchmarkDownload/512MiB", "MB/s"),
				mib(r.get("BenchmarkDownload/64MiB", "peak-rss-MiB")), mib(r.get("BenchmarkDownload/512MiB", "peak-rss-MiB")))
		}},
	{"automatic upload, 64 MiB in 512 KiB chunks",
		bench("Upload", "./internal/snowluma/upload", "-benchtime", "3x"),
		func(r *reader) string { return fmt.Sprintf("%.0f MB/s", r.get("BenchmarkUpload", "MB/s")) }},
	{"event intake, loopback WebSocket into 16 group-filtered resources (hub only, ~450-byte messages)",
		bench("Ingest16", "./internal/hub", "-benchtime", "200000x"),
		func(r *reader) string {
			return thousands(r.get("BenchmarkIngest16Filtered", "events/s")) + " events/s"
		}},
	{"event flood through the binary into 16 filtered resources, 50,000 / 200,000 events: intake; peak RSS (VmHWM)",
		bench("EventFlood", "./e2e", "-benchtime", "1x"),
		func(r *reader) string {
			return fmt.Sprintf("%s / %s events/s; peak RSS %s / %s",
				thousands(r.get("BenchmarkEventFlood/events=50000", "events/s")), thousands(r.get("BenchmarkEventFlood/events=200000", "events/s")),
				mib(r.get("BenchmarkEventFlood/events=50000", "peak-rss-MiB")), mib(r.get("BenchmarkEventFlood/events=200000", "peak-rss-MiB")))
		}},
	{"a background task's own disk writes (record before work, result, final record: three atomic writes, six fsyncs)",
		bench("TaskWrites", "./internal/task", "-benchtime", "100x"),
		func(r *reader) string { return duration(r.ns("BenchmarkTaskWrites")) }},
	{"the same 150 KiB download over stdio: synchronous `invoke_action` vs `invoke_action_background` polled to completion every 1 ms",
		bench("BackgroundDownload", "./e2e", "-benchtime", "200x"),
		func(r *reader) string {
			return fmt.Sprintf("%s vs %s (%.1f polls per task)", duration(r.ns("BenchmarkBackgroundDownload/sync")),
				duration(r.ns("BenchmarkBackgroundDownload/task")), r.get("BenchmarkBackgroundDownload/task", "polls/op"))
		}},
	{"`tasks/get` of a completed task over stdio with 10,000 stored tasks; start-up on that directory",
		bench("TasksGet10k", "./e2e", "-benchtime", "200x"),
		func(r *reader) string {
			return fmt.Sprintf("%s; start-up %s", duration(r.ns("BenchmarkTasksGet10k")), duration(r.get("BenchmarkTasksGet10k", "start-ms")*1e6))
		}},
	{"opening a store of 10,000 finished tasks with 64 KiB results (records only; no result body is read)",
		bench("Open10k", "./internal/task", "-benchtime", "5x"),
		func(r *reader) string { return duration(r.ns("BenchmarkOpen10k")) }},
	{"soak: 10,000 mixed calls over stdio to one binary (docs, reads, downloads, uploads, tool and upstream errors): goroutines, live heap after a forced GC, RSS, baseline → after; call rate",
		bench("Soak", "./e2e", "-benchtime", "1x"),
		func(r *reader) string {
			const s = "BenchmarkSoak"
			return fmt.Sprintf("goroutines %.0f → %.0f; heap %s → %s KiB; RSS %s → %s; %s calls/s",
				r.get(s, "goroutines-base"), r.get(s, "goroutines-after"),
				thousands(r.get(s, "heap-base-KiB")), thousands(r.get(s, "heap-after-KiB")),
				mib(r.get(s, "rss-base-MiB")), mib(r.get(s, "rss-after-MiB")),
				thousands(r.get(s, "calls/s")))
		}},
}
