package fault

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCodeOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"reads the code of a fault", Errorf(CodeTimeout, "slow"), CodeTimeout},
		{"finds a fault inside a wrapped error", fmt.Errorf("outer: %w", Errorf(CodeLimit, "big")), CodeLimit},
		{"calls a plain error internal", errors.New("boom"), CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, CodeOf(tt.err))
		})
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	cause := errors.New("connection refused")
	assert.Equal(t, "cannot reach: connection refused", Wrap(CodeTransport, cause, "cannot reach").Error())
	assert.Equal(t, "connection refused", Wrap(CodeTransport, cause, "").Error())
	assert.ErrorIs(t, Wrap(CodeTransport, cause, "x"), cause)
}

func TestQuote(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("名", 2_000_000)
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"quotes a short value whole", "send_msg", `"send_msg"`},
		{"escapes control characters", "a\nb", `"a\nb"`},
		{"cuts a long value on a rune boundary and names its size", long, `"` + strings.Repeat("名", 66) + `"… (6000000 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Quote(tt.in))
		})
	}
}
