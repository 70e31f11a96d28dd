package payload

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEncode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   any
		want string
		err  bool
	}{
		{"encodes nil as null", nil, `null`, false},
		{"keeps raw JSON as written", json.RawMessage(`{"n":1.50}`), `{"n":1.50}`, false},
		{"refuses raw bytes that are not JSON", json.RawMessage(`{`), ``, true},
		{"does not escape HTML", map[string]string{"t": "<a&b>"}, `{"t":"<a&b>"}`, false},
		{"refuses what JSON cannot hold", make(chan int), ``, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Encode(tt.in)
			if tt.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}
