package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOwesAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		method string
		owes   bool
	}{
		{"a tool call ends on its own, so EOF waits for it", "tools/call", true},
		{"a list ends on its own, so EOF waits for it", "tools/list", true},
		{"a subscription stream ends only when cancelled, so EOF does not wait", "subscriptions/listen", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.owes, OwesAnswer(tt.method))
		})
	}
}
