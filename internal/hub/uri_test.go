package hub

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseURIReadsTheIDAndTheAfterCursor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, uri string
		id        string
		after     uint64
		why       string // part of the error; "" for none
	}{
		{"a bare URI reads from the start", URIPrefix + "ab12", "ab12", 0, ""},
		{"after is the cursor", URIPrefix + "ab12?after=42", "ab12", 42, ""},
		{"after 0 is allowed", URIPrefix + "ab12?after=0", "ab12", 0, ""},
		{"another scheme is not an event URI", "snowluma://onebot/actions", "", 0, "not an event resource URI"},
		{"an empty id is not an event URI", URIPrefix, "", 0, "not an event resource URI"},
		{"a further path is not an event URI", URIPrefix + "ab12/x", "", 0, "not an event resource URI"},
		{"a fragment is not an event URI", URIPrefix + "ab12?after=1#x", "", 0, "not an event resource URI"},
		{"another query is refused", URIPrefix + "ab12?before=1", "", 0, "only query"},
		{"two afters are refused", URIPrefix + "ab12?after=1&after=2", "", 0, "only query"},
		{"a query that does not parse is refused", URIPrefix + "ab12?after=%zz", "", 0, "only query"},
		{"a negative cursor is refused", URIPrefix + "ab12?after=-1", "", 0, "whole number"},
		{"a word is no cursor", URIPrefix + "ab12?after=x", "", 0, "whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id, after, err := ParseURI(tt.uri)
			if tt.why != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.why)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.id, id)
			assert.Equal(t, tt.after, after)
		})
	}
}
