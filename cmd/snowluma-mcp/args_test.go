package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/version"
)

func TestCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantDone   bool
		wantStdout string
		wantStderr string
	}{
		{"no arguments serve", nil, 0, false, "", ""},
		{"--version prints the version and exits 0", []string{"--version"}, 0, true, "snowluma-mcp " + version.String() + "\n", ""},
		{"-version is the same flag", []string{"-version"}, 0, true, "snowluma-mcp " + version.String() + "\n", ""},
		{"--help prints the usage and exits 0", []string{"--help"}, 0, true, usage, ""},
		{"an unknown flag is refused, not ignored", []string{"--port=3000"}, 2, true, "", "snowluma-mcp: flag provided but not defined: -port\nusage:"},
		{"a positional argument is refused, not ignored", []string{"serve"}, 2, true, "", `snowluma-mcp: unexpected argument "serve": settings come from the environment`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code, done := commandLine(tt.args, &stdout, &stderr)
			assert.Equal(t, tt.wantCode, code)
			assert.Equal(t, tt.wantDone, done)
			assert.Equal(t, tt.wantStdout, stdout.String())
			if tt.wantStderr == "" {
				assert.Empty(t, stderr.String())
			} else {
				assert.Contains(t, stderr.String(), tt.wantStderr)
			}
		})
	}
}
