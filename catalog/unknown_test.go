package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearestBoundsWhatItCompares(t *testing.T) {
	t.Parallel()
	huge := make([]byte, 10000)
	for i := range huge {
		huge[i] = 'a'
	}
	assert.Empty(t, NearestParams(string(huge), []string{"card", "aaaa"}))
	assert.Equal(t, []string{"group_id"}, NearestParams("groupid", []string{"group_id", "user_id"}))
	assert.Empty(t, NearestParams("zz", []string{"group_id"}))
}

func TestTopKeysReadsOnlyTheTopLevel(t *testing.T) {
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
			assert.Equal(t, tt.want, topKeys([]byte(tt.doc)))
		})
	}
}
