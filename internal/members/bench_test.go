package members

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// manyKeys is issue 49's hostile arguments: 100,000 keys in a params.
func manyKeys() []byte {
	var b strings.Builder
	b.WriteString(`{"action":"get_group_info","params":{"group_id":1`)
	for i := range 100000 {
		fmt.Fprintf(&b, `,"junk_key_%07d":1`, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// go test -run '^$' -bench . ./internal/members
func BenchmarkValid(b *testing.B) {
	doc := manyKeys()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		Valid(doc)
	}
}

func BenchmarkJSONValid(b *testing.B) {
	doc := manyKeys()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		json.Valid(doc)
	}
}

func BenchmarkEach(b *testing.B) {
	doc := manyKeys()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		Each(doc, func(_, _ []byte) bool { return true })
	}
}
