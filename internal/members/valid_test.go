package members

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

var validSeeds = []string{
	``, ` `, `{}`, `[]`, `[ ]`, `{ }`, `{"a":1}`, `{"a":1,}`, `[1,]`, `[,1]`, `{"a"}`, `{"a":}`, `{1:1}`,
	`"\u00e9\n\"\\\/\b\f\r\t"`, `"\u00g0"`, `"\x"`, "\"a\x01\"", "\"\xff\xfe\"", `"abc`, `"\`,
	`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`, `-1.5e10`, `1.5.5`, `+1`,
	`true`, `false`, `null`, `tru`, `nulll`, `True`, `[true,false,null]`, `{"a":[{"b":{}}]}`,
	`{"a":1}}`, `[1]]`, `[1}`, `{"a":1]`, `1 2`, ` 1 `, "\t\n\r1\r\n", `{"a" : [ 1 , 2 ] , "b" : { } }`,
	`[[[[[[[[[[]]]]]]]]]]`, `{"a":{"a":{"a":{}}}}`, "\x00", `[1,2,3,"x",{"k":null}]`,
}

// Valid answers as json.Valid does, for every input.
func FuzzValidMatchesJSONValid(f *testing.F) {
	for _, s := range append(validSeeds, seeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if Valid(doc) != json.Valid(doc) {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", doc, Valid(doc), json.Valid(doc))
		}
	})
}

func TestValidNestsAsDeepAsEncodingJSON(t *testing.T) {
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		for _, open := range []string{"[", `{"k":`} {
			close := map[string]string{"[": "]", `{"k":`: "}"}[open]
			doc := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(close, depth))
			assert.Equal(t, json.Valid(doc), Valid(doc), fmt.Sprintf("%s × %d", open, depth))
		}
	}
}
