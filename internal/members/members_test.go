package members

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seeds are objects whose members are written every way JSON allows.
var seeds = []string{
	`{}`,
	` { } `,
	`{"a":1}`,
	`{"a" : 1 , "b" :[1, 2 ,{"c":"}"}] ,"d":{"e":[]}}`,
	`{"a":-1.5e+3,"b":true,"c":false,"d":null,"e":"x\"y\\"}`,
	`{"a":1,"a":2}`,
	`{"\u0061":1,"a":2}`,
	`{"k\"ey":"v","\n":0}`,
	"{\"a\"\t:\r\n\"b\"\n}",
	`{"中文":"值","é":1e9}`,
	`{"a":{"b":{"c":[[[]]]}},"z":0}`,
	`[1,2]`,
	`"s"`,
	`12`,
	`null`,
}

// Map gives what json.Unmarshal into a map of raw members gives, for
// every valid JSON document.
func FuzzMapMatchesUnmarshal(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			Each(doc, func(_, _ []byte) bool { return true }) // must not panic
			return
		}
		var want map[string]json.RawMessage
		if json.Unmarshal(doc, &want) != nil {
			require.Nil(t, Map(doc), "%q is not an object", doc)
			return
		}
		got := Map(doc)
		require.Equal(t, len(want), len(got), "%q", doc)
		for k, v := range want {
			require.Equal(t, string(v), string(got[k]), "member %q of %q", k, doc)
		}
	})
}

func TestEachPassesEveryMemberInOrder(t *testing.T) {
	doc := []byte(`{"b":1, "a" : {"x":[1,"]"]} ,"b":"two"}`)
	var keys, values []string
	ok := Each(doc, func(k, v []byte) bool {
		keys = append(keys, string(k))
		values = append(values, string(v))
		return true
	})
	assert.True(t, ok)
	assert.Equal(t, []string{"b", "a", "b"}, keys)
	assert.Equal(t, []string{`1`, `{"x":[1,"]"]}`, `"two"`}, values)
}

func TestEachStopsWhenAsked(t *testing.T) {
	n := 0
	Each([]byte(`{"a":1,"b":2,"c":3}`), func(_, _ []byte) bool { n++; return n < 2 })
	assert.Equal(t, 2, n)
}

func TestEachReportsANonObject(t *testing.T) {
	for _, doc := range []string{``, `[]`, `"{}"`, `1`, `null`} {
		assert.False(t, Each([]byte(doc), func(_, _ []byte) bool { return true }), doc)
	}
}

func TestOffsetIsWhereTheValueStarts(t *testing.T) {
	doc := []byte(`{"a":1, "args" : {"k":2}}`)
	Each(doc, func(k, v []byte) bool {
		if string(k) == "args" {
			assert.Equal(t, strings.Index(string(doc), `{"k"`), Offset(doc, v))
		}
		return true
	})
}

// A value is not copied: a large one costs a scan, not an allocation.
func TestEachCopiesNoValue(t *testing.T) {
	doc := []byte(`{"params":{"` + strings.Repeat("k", 1<<16) + `":1}}`)
	allocs := testing.AllocsPerRun(10, func() {
		Each(doc, func(_, _ []byte) bool { return true })
	})
	assert.Zero(t, allocs)
}
