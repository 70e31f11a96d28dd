package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// declared reads the string constants a package's source declares whose
// type or name says they are what is looked for, so a table here cannot
// silently miss one. A constant counts when its declared type is typeName
// (fault's `Code`), or when it is untyped and its name starts with prefix
// (pipeline's `Kind…`).
func declared(t *testing.T, dir, typeName, prefix string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				id, typed := vs.Type.(*ast.Ident)
				wanted := typed && id.Name == typeName
				if typeName == "" {
					wanted = vs.Type == nil && len(vs.Names) == 1 && strings.HasPrefix(vs.Names[0].Name, prefix)
				}
				if !wanted {
					if typeName != "" {
						for _, n := range vs.Names {
							assert.NotRegexp(t, `^Code[A-Z]`, n.Name, "a code constant spells out its type, so this test sees it")
						}
					}
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					require.True(t, ok, "%s is a string literal", vs.Names[0].Name)
					s, err := strconv.Unquote(lit.Value)
					require.NoError(t, err)
					out = append(out, s)
				}
			}
		}
	}
	require.NotEmpty(t, out, "the parse of %s found the constants", dir)
	return out
}

func TestEveryDeclaredCodeHasARow(t *testing.T) {
	t.Parallel()
	var rows []string
	for _, f := range append(Table(nil), codes...) {
		rows = append(rows, string(f.Code))
	}
	assert.ElementsMatch(t, declared(t, filepath.Join("..", "internal", "fault"), "Code", ""), rows)
}

func TestEveryDeclaredVerdictHasARow(t *testing.T) {
	t.Parallel()
	var rows []string
	for _, v := range verdicts {
		rows = append(rows, v.Kind)
	}
	assert.ElementsMatch(t, declared(t, ".", "", "Kind"), rows)
}

// TestEveryKindIsDescribed: the docs' diagnostics tables are written from
// Kinds, so every kind has its words in both languages, a next step for
// the agent when it is a code, and an outcome the server gives it.
func TestEveryKindIsDescribed(t *testing.T) {
	t.Parallel()
	for _, f := range append(Table(nil), codes...) {
		assert.NotEmpty(t, f.Next, f.Code)
	}
	for _, d := range Kinds() {
		assert.Regexp(t, `^(failed|unknown)\b`, d.Outcome.EN, d.Kind)
		for _, w := range []lang.Text{d.Outcome, d.Happened, d.Fix} {
			assert.NotEmpty(t, w.EN, "%s: English words", d.Kind)
			assert.NotEmpty(t, w.ZH, "%s: Chinese words", d.Kind)
		}
	}
	require.Len(t, Kinds(), len(append(Table(nil), codes...))+len(verdicts))
	assert.Equal(t, string(fault.CodeInvalidArgument), Kinds()[0].Kind, "codes come first, in table order")
}

// TestANewCodeIsOneRow adds a code to a copy of the table: it is then in
// the kinds list (from which the docs are written), and a failure with it
// reads its row's next step and outcome.
func TestANewCodeIsOneRow(t *testing.T) {
	t.Parallel()
	row := CodeFacts{Code: "brand_new", MayAct: true, Next: "Do the new thing.",
		Happened: lang.Text{EN: "something new", ZH: "新情况"}, Fix: lang.Text{EN: "fix it", ZH: "改正"}}
	table := append(append(Table(nil), codes...), row)

	kinds := table.kinds()
	assert.Contains(t, kinds, Described{Kind: "brand_new",
		Outcome:  lang.Text{EN: "failed, or unknown for a write already sent", ZH: "failed，写操作已发出时为 unknown"},
		Happened: row.Happened, Fix: row.Fix})

	write := &Call{Resolved: Resolved{Action: &catalog.Action{Name: "send_group_msg"}}}
	r := table.failure(write, fault.Errorf("brand_new", "it happened"))
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

// TestAnUnansweredFormIsNotCalledTheUsersChoice: a host may answer a form
// without showing it (Claude Code's -p mode cancels at once, Codex with
// writes allowed declines), so neither the agent's step nor the docs'
// words say the user chose it, and both send the agent to the chat.
func TestAnUnansweredFormIsNotCalledTheUsersChoice(t *testing.T) {
	t.Parallel()
	row := codes.facts(fault.CodeInputDeclined)
	assert.Contains(t, row.Next, "ask them in the chat")
	assert.Contains(t, row.Happened.EN, "by the user or by a host that answers forms without showing them")
	assert.Contains(t, row.Happened.ZH, "宿主")
	assert.Contains(t, row.Fix.EN, "asks in the chat")
	assert.Contains(t, row.Fix.ZH, "对话里")
}
