package fault

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
)

// declaredCodes reads every constant of type Code declared in the
// package's source, so Codes, which callers iterate to hold each code to
// its duties, cannot silently miss one.
func declaredCodes(t *testing.T) []Code {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var out []Code
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
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
					for _, n := range vs.Names {
						assert.NotRegexp(t, `^Code[A-Z]`, n.Name, "a code constant spells out its type, so this test sees it")
					}
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					require.True(t, ok, "a Code constant is a string literal")
					s, err := strconv.Unquote(lit.Value)
					require.NoError(t, err)
					out = append(out, Code(s))
				}
			}
		}
	}
	return out
}

func TestCodesListsEveryDeclaredCode(t *testing.T) {
	t.Parallel()
	declared := declaredCodes(t)
	require.NotEmpty(t, declared, "the parse found the Code constants")
	assert.ElementsMatch(t, declared, Codes())
}
