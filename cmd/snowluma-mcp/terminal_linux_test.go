package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheHintIsForATerminalOnly: a pseudo-terminal gets the line, and a
// pipe, which is how every host connects, gets nothing.
func TestTheHintIsForATerminalOnly(t *testing.T) {
	t.Parallel()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	require.NoError(t, err, "a pseudo-terminal's master side")
	defer pty.Close()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()

	var out bytes.Buffer
	hintAtTerminal(pty, &out)
	assert.Equal(t, terminalHint+"\n", out.String())
	assert.Contains(t, out.String(), "snowluma-mcp check")
	assert.Contains(t, out.String(), "--help")

	out.Reset()
	hintAtTerminal(r, &out)
	assert.Empty(t, out.String())
}
