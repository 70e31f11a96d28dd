//go:build !windows

// The commands here are sh scripts, and the limit kills a process group:
// both Unix only (on Windows, group_windows.go has no group to kill).

package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommandReturnsOutputAndExit(t *testing.T) {
	text, err := command(context.Background(), time.Minute, "sh", []string{"-c", "echo out; echo err >&2; exit 3"})
	require.Error(t, err)
	assert.Equal(t, "out\nerr\n", text, "stdout and stderr together")
	assert.Equal(t, "exit status 3; err", failure(err, parse(text), text))
}

// TestCommandEndsAHungProcessGroupAtTheLimit: a child that keeps the
// output pipe open (as go test's benchmark binary does) must not keep the
// row waiting once the limit passes.
func TestCommandEndsAHungProcessGroupAtTheLimit(t *testing.T) {
	text, err := command(context.Background(), 200*time.Millisecond, "sh", []string{"-c", "echo started; sleep 60 & sleep 60"})
	assert.EqualError(t, err, "timed out after 200ms")
	assert.Equal(t, "started\n", text, "what was printed before the limit is kept")
}
