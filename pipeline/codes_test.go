package pipeline

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// TestANewCodeIsOneRow adds a code to a copy of fault's table: a failure
// with it reads its row's next step and outcome (fault's own test shows
// the row in the kinds list, docgen's in both docs tables).
func TestANewCodeIsOneRow(t *testing.T) {
	t.Parallel()
	row := fault.Facts{Code: "brand_new", MayAct: true, Next: "Do the new thing.",
		Happened: lang.Text{EN: "something new", ZH: "新情况"}, Fix: lang.Text{EN: "fix it", ZH: "改正"}}
	table := append(append(fault.Table(nil), fault.Codes...), row)

	write := &Call{Resolved: Resolved{Action: &catalog.Action{Name: "send_group_msg"}}}
	r := failure(table, write, fault.Errorf("brand_new", "it happened"))
	assert.Equal(t, "brand_new", r.Diagnostics.Kind)
	assert.Equal(t, "Do the new thing.", r.Diagnostics.NextStep)
	assert.Equal(t, OutcomeUnknown, r.Diagnostics.Outcome, "its row says a sent write may have acted")

	assert.Equal(t, "internal", Failure(write, fault.Errorf("brand_new", "it happened")).Diagnostics.Kind,
		"without the row, the server does not know the code")
}

func TestAReadIsToldItCanBeRepeated(t *testing.T) {
	t.Parallel()
	read := &Call{Resolved: Resolved{Action: &catalog.Action{Name: "get_status", ReadOnly: true}}}
	write := &Call{Resolved: Resolved{Action: &catalog.Action{Name: "send_group_msg"}}}
	tests := []struct {
		name string
		call *Call
		code fault.Code
		want string
	}{
		{"a timed-out read is not warned about writes", read, fault.CodeTimeout, "A read can be called again"},
		{"a timed-out write is told to check its effect", write, fault.CodeTimeout, "For a write, check"},
		{"a cancelled read can be called again", read, fault.CodeCancelled, "a read can simply be called again"},
		{"a code without words for reads keeps its one step", read, fault.CodeLimit, "get_runtime_info shows the effective limits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Contains(t, Failure(tt.call, fault.Errorf(tt.code, "x")).Diagnostics.NextStep, tt.want)
		})
	}
}

// TestAVerdictReadsItsRow: a verdict's outcome, message and next step
// come from its row in fault.Verdicts, and the answer's own message wins.
func TestAVerdictReadsItsRow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		kind, msg, code string
		readOnly        bool
		want            Diagnostics
	}{
		{"async is unknown with its row's words", fault.KindAsyncAccepted, "", "", false, Diagnostics{Outcome: OutcomeUnknown, Kind: "async_accepted",
			Message: "SnowLuma accepted the action asynchronously; its result is not confirmed", NextStep: "Check the effect (for example with a read action) before acting on it."}},
		{"a business failure keeps SnowLuma's wording", fault.KindBusinessFailure, "no such group", "1400", false, Diagnostics{Outcome: OutcomeFailed, Kind: "business_failure",
			Message: "no such group", NextStep: fault.VerdictOf(fault.KindBusinessFailure).NextFor("1400", false)}},
		{"a failed query is told it can be asked again", fault.KindBusinessFailure, "x", "100", true, Diagnostics{Outcome: OutcomeFailed, Kind: "business_failure",
			Message: "x", NextStep: "The query failed inside SnowLuma or QQ; the wording says why. A query changes nothing, so it can be asked again once the cause is gone (for example with other params)."}},
		{"input required says only its outcome", fault.KindInputRequired, "", "", false, Diagnostics{Outcome: OutcomeUnknown, Kind: "input_required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Verdict(tt.kind, tt.msg, tt.code, tt.readOnly))
		})
	}
}
