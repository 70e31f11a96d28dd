package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExpandReplacesOnlyItsOwnReferences(t *testing.T) {
	t.Parallel()
	e := NewEncodings()
	raw := json.RawMessage(`{"tools":[]}`)
	ref := e.ref(raw)
	other := NewEncodings().ref(json.RawMessage(`{"x":1}`))
	tests := []struct {
		name   string
		result json.RawMessage
		want   json.RawMessage
	}{
		{"a reference it made becomes the bytes it stands for", ref, raw},
		{"a reference made with another nonce is left alone", other, other},
		{"an ordinary result is left alone", json.RawMessage(`{"content":[]}`), json.RawMessage(`{"content":[]}`)},
		{"a result that only starts like a reference is left alone", append(append(json.RawMessage{}, ref[:len(ref)-2]...), `9"}`...), append(append(json.RawMessage{}, ref[:len(ref)-2]...), `9"}`...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, string(tt.want), string(e.Expand(tt.result)))
		})
	}
}
