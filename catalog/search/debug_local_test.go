package search

import (
	"fmt"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"
)

func TestDebugQ(t *testing.T) {
	q := os.Getenv("Q")
	if q == "" {
		t.Skip()
	}
	x := load(t)
	x.parsed()
	fmt.Println("terms:", x.bm25.requestTerms(q), "intent:", intentOf(q), "blank:", withoutPayload(q))
	sc := x.scores(q)
	for _, a := range x.Suggest(t.Context(), q, catalog.Filter{})[:5] {
		fmt.Printf("  %s %.2f ro=%v\n", a.Name, sc[x.at[a]], a.ReadOnly)
	}
}

func TestTuneOnly(t *testing.T) {
	if os.Getenv("TUNE") == "" {
		t.Skip()
	}
	x := load(t)
	f := measure(t, x, readLines[labelled](t, "tune.jsonl"), os.Getenv("EVAL_SHOW_TUNE") != "")
	fmt.Println("TUNE", f)
}

func TestDebugAction(t *testing.T) {
	n := os.Getenv("A")
	if n == "" {
		t.Skip()
	}
	x := load(t)
	a, _ := x.cat.Lookup(n)
	for _, f := range fieldsOf(a) {
		fmt.Println(f.weight, f.terms)
	}
}

func TestProbe(t *testing.T) {
	if os.Getenv("PROBE") == "" {
		t.Skip()
	}
	x := load(t)
	f, _ := os.ReadFile(os.Getenv("PROBE"))
	var rs []labelled
	for _, l := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var r labelled
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(l, err)
		}
		rs = append(rs, r)
	}
	fmt.Println("PROBE", measure(t, x, rs, true))
}
