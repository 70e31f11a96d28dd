package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMakeDistPassesTheVersionAsOneArgument: make dist once pasted
// $(VERSION) into its recipe's shell line, so a version that carries shell
// (a pushed tag) ran as shell. The recipe is run with GO standing in for
// a go that writes down its arguments, in a folder of its own (the recipe
// removes dist there), given the version on the command line and through
// the environment alone.
func TestMakeDistPassesTheVersionAsOneArgument(t *testing.T) {
	t.Parallel()
	makefile, err := filepath.Abs(filepath.Join("..", "..", "Makefile"))
	require.NoError(t, err)
	mk, err := exec.LookPath("make")
	require.NoError(t, err, "make test runs with make on the PATH")
	const hostile = `1.0.0-x";touch PWNED;"`
	tests := []struct {
		name string
		args []string
		env  []string
	}{
		{"on the command line", []string{"VERSION=" + hostile, "TARGETS=linux/amd64 x"}, nil},
		{"through the environment", nil, []string{"VERSION=" + hostile, "TARGETS=linux/amd64 x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			stub := filepath.Join(dir, "go-stub")
			// One argument a line: an argument split or joined shows.
			require.NoError(t, os.WriteFile(stub, []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >args\n"), 0o755))
			cmd := exec.Command(mk, append([]string{"-s", "-f", makefile, "-C", dir, "dist", "GO=" + stub}, tt.args...)...)
			cmd.Env = append(os.Environ(), tt.env...)
			out, err := cmd.CombinedOutput()
			assert.NoFileExists(t, filepath.Join(dir, "PWNED"), "the version ran as shell")
			require.NoError(t, err, "%s", out)
			args, err := os.ReadFile(filepath.Join(dir, "args"))
			require.NoError(t, err)
			assert.Equal(t, []string{"run", "./cmd/release", "-version", hostile, "-targets", "linux/amd64 x", "-out", "dist"},
				strings.Split(strings.TrimSuffix(string(args), "\n"), "\n"))
		})
	}
}
