package fault

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// TestEveryRowIsComplete: each code and each verdict is declared by its
// row, so every one has a row; this holds each row whole: a kind of its
// own, the agent's next step, and the docs' words in both languages.
func TestEveryRowIsComplete(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	both := func(kind string, texts ...lang.Text) {
		for _, w := range texts {
			assert.NotEmpty(t, w.EN, "%s: English words", kind)
			assert.NotEmpty(t, w.ZH, "%s: Chinese words", kind)
		}
	}
	for _, f := range Codes {
		assert.Regexp(t, `^[a-z]+(_[a-z]+)*$`, f.Code)
		assert.False(t, seen[string(f.Code)], "%s has one row", f.Code)
		seen[string(f.Code)] = true
		assert.NotEmpty(t, f.Next, f.Code)
		both(string(f.Code), f.Happened, f.Fix)
	}
	for _, v := range Verdicts {
		assert.False(t, seen[v.Kind], "%s has one row, and is no code", v.Kind)
		seen[v.Kind] = true
		assert.Contains(t, []string{"failed", "unknown"}, v.Outcome, v.Kind)
		if v.Kind != KindInputRequired { // the client acts on it, not the agent
			assert.NotEmpty(t, v.Next, v.Kind)
		}
		for _, r := range v.Retcodes {
			assert.NotEmpty(t, r.Next, "%s %s", v.Kind, r.Retcode)
		}
		both(v.Kind, v.Happened, v.Fix)
	}
	assert.Equal(t, CodeInternal, Codes.Of("no_such_code").Code, "an unknown code reads as internal")
}

// TestEveryKindIsDescribed: the docs' diagnostics tables are written from
// Kinds: codes first in table order, then verdicts, each with an outcome
// the server gives it.
func TestEveryKindIsDescribed(t *testing.T) {
	t.Parallel()
	kinds := Kinds()
	require.Len(t, kinds, len(Codes)+len(Verdicts))
	assert.Equal(t, string(CodeInvalidArgument), kinds[0].Kind, "codes come first, in table order")
	assert.Equal(t, KindBusinessFailure, kinds[len(Codes)].Kind, "then the verdicts")
	for _, d := range kinds {
		assert.Regexp(t, `^(failed|unknown)\b`, d.Outcome.EN, d.Kind)
		assert.NotEmpty(t, d.Outcome.ZH, d.Kind)
	}
}

// TestANewCodeIsOneRow adds a code to a copy of the table: it is then in
// the kinds list (from which the docs are written) with its words, and
// its outcome follows MayAct. pipeline's test shows a failure with it
// reading its row; docgen's, both docs tables.
func TestANewCodeIsOneRow(t *testing.T) {
	t.Parallel()
	row := Facts{Code: "brand_new", MayAct: true, Next: "Do the new thing.",
		Happened: lang.Text{EN: "something new", ZH: "新情况"}, Fix: lang.Text{EN: "fix it", ZH: "改正"}}
	table := append(append(Table(nil), Codes...), row)

	assert.Contains(t, table.Kinds(), Described{Kind: "brand_new",
		Outcome:  lang.Text{EN: "failed, or unknown for a write already sent", ZH: "failed，写操作已发出时为 unknown"},
		Happened: row.Happened, Fix: row.Fix})
	assert.Equal(t, row, table.Of("brand_new"))
	assert.NotContains(t, Kinds(), Described{Kind: "brand_new", Outcome: lang.Text{EN: "failed, or unknown for a write already sent", ZH: "failed，写操作已发出时为 unknown"},
		Happened: row.Happened, Fix: row.Fix}, "the server's own table is untouched")
}

// TestARetcodeHasItsOwnStep: a business failure's next step is its
// retcode's, for a read its read words, and the kind's own otherwise.
func TestARetcodeHasItsOwnStep(t *testing.T) {
	t.Parallel()
	v := VerdictOf(KindBusinessFailure)
	tests := []struct {
		name, retcode string
		readOnly      bool
		want          string
	}{
		{"bad params", "1400", false, "fix them as the wording says"},
		{"an unknown action names the endpoint's path", "1404", true, "SNOWLUMA_MCP_ENDPOINT's path is wrong"},
		{"a failed write is not repeated blindly", "100", false, "Do not repeat a write"},
		{"a failed read can be asked again", "100", true, "it can be asked again"},
		{"another retcode reads the result", "200", false, "Read status, retcode and wording in result."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Contains(t, v.NextFor(tt.retcode, tt.readOnly), tt.want)
		})
	}
	assert.Equal(t, Verdict{Kind: "nope"}, VerdictOf("nope"))
}

// TestAnUnansweredFormIsNotCalledTheUsersChoice: a host may answer a form
// without showing it (Claude Code's -p mode cancels at once, Codex with
// writes allowed declines), so neither the agent's step nor the docs'
// words say the user chose it, and both send the agent to the chat.
func TestAnUnansweredFormIsNotCalledTheUsersChoice(t *testing.T) {
	t.Parallel()
	row := Codes.Of(CodeInputDeclined)
	assert.Contains(t, row.Next, "ask them in the chat")
	assert.Contains(t, row.Happened.EN, "by the user or by a host that answers forms without showing them")
	assert.Contains(t, row.Happened.ZH, "宿主")
	assert.Contains(t, row.Fix.EN, "asks in the chat")
	assert.Contains(t, row.Fix.ZH, "对话里")
}
