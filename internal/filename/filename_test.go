package filename

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDevice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want bool
	}{
		{"CON", true}, {"con", true}, {"Nul", true}, {"PRN", true}, {"aux", true},
		{"COM1", true}, {"com9", true}, {"LPT1", true}, {"lpt0", true}, {"COM¹", true},
		{"CONIN$", true}, {"conout$", true}, {"CLOCK$", true},
		{"nul.txt", true}, {"Com1.tar.gz", true}, {"CON .log", true}, {"con  ", true},
		{"console", false}, {"COM10", false}, {"COM", false}, {"LPT", false}, {"nul_.txt", false},
		{"a.con", false}, {" CON", false}, {"hello.txt", false}, {"", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Device(tt.name), "%q", tt.name)
	}
}

func TestForbidden(t *testing.T) {
	t.Parallel()
	for _, r := range `<>:"/\|?*` + "\x00\x01\x1f\x7f" {
		assert.True(t, Forbidden(r), "%q", r)
	}
	for _, r := range "aZ09 .-_()[]{}'$%&+,;=@^`~é群\u00a0" {
		assert.False(t, Forbidden(r), "%q", r)
	}
}

func TestTrimmed(t *testing.T) {
	t.Parallel()
	for _, n := range []string{"a.", "a ", ".. ", "...", "a.txt.", "x. "} {
		assert.True(t, Trimmed(n), "%q", n)
	}
	for _, n := range []string{"a", ".", "..", ".a", " a", "a.txt", ""} {
		assert.False(t, Trimmed(n), "%q", n)
	}
}
