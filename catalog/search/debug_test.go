package search

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"
)

func TestDebugQuery(t *testing.T) {
	q := os.Getenv("DEBUG_Q")
	if q == "" {
		t.Skip()
	}
	x := load(t).parsed()
	for _, one := range strings.Split(q, "|") {
		terms := x.bm25.requestTerms(one)
		t.Logf("%q payloadless=%q intent=%d terms=%v", one, withoutPayload(one), intentOf(one), terms)
		scores := x.scores(one)
		for _, a := range x.Suggest(context.Background(), one, catalog.Filter{})[:5] {
			for i, b := range x.all {
				if a == b {
					t.Logf("  %s %.2f", a.Name, scores[i])
				}
			}
		}
	}
}
