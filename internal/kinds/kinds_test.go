package kinds

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

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// declared reads the string constants a package's source declares whose
// type or name says they are what is looked for, so a list here cannot
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

func TestCodesListsEveryDeclaredCode(t *testing.T) {
	t.Parallel()
	var codes []string
	for _, c := range Codes() {
		codes = append(codes, string(c))
	}
	assert.ElementsMatch(t, declared(t, filepath.Join("..", "fault"), "Code", ""), codes)
}

func TestVerdictsListsEveryDeclaredKind(t *testing.T) {
	t.Parallel()
	assert.ElementsMatch(t, declared(t, filepath.Join("..", "..", "pipeline"), "", "Kind"), Verdicts())
}

func TestEveryCodeHasANextStep(t *testing.T) {
	t.Parallel()
	for _, code := range Codes() {
		assert.NotEmpty(t, pipeline.NextStep(code), code)
	}
}

func TestAllIsEveryCodeThenEveryVerdict(t *testing.T) {
	t.Parallel()
	all := All()
	require.Len(t, all, len(Codes())+len(Verdicts()))
	assert.Equal(t, string(fault.CodeInvalidArgument), all[0])
	assert.Equal(t, Verdicts(), all[len(Codes()):])
}

// TestEveryKindIsDescribed: the docs' diagnostics tables are written from
// Descriptions, so they name every kind the server can emit, once, each
// in both languages, with an outcome the server gives it.
func TestEveryKindIsDescribed(t *testing.T) {
	t.Parallel()
	var named []string
	for _, d := range descriptions {
		named = append(named, d.Kind)
		assert.Regexp(t, `^(failed|unknown|success)\b`, d.Outcome.EN, d.Kind)
		for _, w := range []lang.Text{d.Outcome, d.Happened, d.Next} {
			assert.NotEmpty(t, w.EN, "%s: English words", d.Kind)
			assert.NotEmpty(t, w.ZH, "%s: Chinese words", d.Kind)
		}
	}
	assert.ElementsMatch(t, All(), named)
}
