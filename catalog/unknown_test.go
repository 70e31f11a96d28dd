package catalog

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearestBoundsWhatItCompares(t *testing.T) {
	t.Parallel()
	a := &Action{Name: "x", Params: []Param{{Name: "group_id", Type: "uint", Role: "group_id"}, {Name: "user_id", Type: "uint"}, {Name: "aaaa", Type: "string"}}}
	assert.Empty(t, a.NearestParams(strings.Repeat("a", 10000)), "a key no param is as long as is not a slip of one")
	assert.Equal(t, []string{"group_id"}, a.NearestParams("groupid"))
	assert.Empty(t, a.NearestParams("zz"))
}

func TestScanKeysReadsOnlyTheTopLevel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"plain keys in order", `{"b":1,"a":2}`, []string{"b", "a"}},
		{"white space everywhere", " {\n \"a\" :\t1 , \"b\": [ 1 , 2 ] }\n", []string{"a", "b"}},
		{"nested objects and arrays are skipped", `{"m":[{"type":"text","data":{"text":"x","k":1}}],"g":{"x":{"y":[]}},"z":null}`, []string{"m", "g", "z"}},
		{"strings that look like JSON are skipped", `{"t":"}{,\"q\":1","u":"\\\""}`, []string{"t", "u"}},
		{"an escaped key is decoded", `{"user\u005fid":1}`, []string{"user_id"}},
		{"an empty object", `{}`, nil},
		{"not an object", `[1]`, nil},
		{"not JSON", `{"a":1,,}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var names []string
			scanKeys([]byte(tt.doc), func(k []byte, _ byte) { names = append(names, string(k)) })
			assert.Equal(t, tt.want, names)
		})
	}
}

func TestScanKeysSaysEachValuesKind(t *testing.T) {
	t.Parallel()
	var kinds []byte
	scanKeys([]byte(`{"s":"x","t":true,"f":false,"n":null,"i":-1,"o":{},"a":[]}`), func(_ []byte, k byte) { kinds = append(kinds, k) })
	assert.Equal(t, []byte{'"', 't', 'f', 'n', '-', '{', '['}, kinds)
}

// TestACompoundKeyIsReadByItsHeadNoun: a key the vocabulary does not hold
// whole is read by its words, the head noun first and a mere number word
// (id, qq) last, each offered only where the action reads the param.
func TestACompoundKeyIsReadByItsHeadNoun(t *testing.T) {
	t.Parallel()
	cat, err := Load()
	if !assert.NoError(t, err) {
		return
	}
	tests := []struct {
		action, key string
		first       string
	}{
		{"send_msg", "target_group_id", "group_id"},
		{"set_group_kick", "group_qq", "group_id"},
		{"send_like", "friend_qq", "user_id"},
		{"send_like", "group_qq", "user_id"},
		{"set_group_special_title", "custom_title", "special_title"},
		{"move_group_file", "target_parent_directory", "target_directory"},
	}
	for _, tt := range tests {
		t.Run(tt.action+" "+tt.key, func(t *testing.T) {
			t.Parallel()
			a, ok := cat.Lookup(tt.action)
			if assert.True(t, ok) {
				got := a.NearestParams(tt.key)
				if assert.NotEmpty(t, got) {
					assert.Equal(t, tt.first, got[0], "%v", got)
				}
			}
		})
	}
}
