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
			code, done := commandLine(tt.args, &stdout, &stderr, func(asJSON bool) int {
				t.Fatal("check must not run")
				return 0
			})
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

// TestCheckSubcommandArguments: check runs with or without --json, and
// refuses what it does not know rather than checking something else.
func TestCheckSubcommandArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantJSON   *bool
		wantStdout string
		wantStderr string
	}{
		{"check prints the report", []string{"check"}, 7, boolPtr(false), "", ""},
		{"--json asks for JSON", []string{"check", "--json"}, 7, boolPtr(true), "", ""},
		{"--help prints the usage", []string{"check", "--help"}, 0, nil, usage, ""},
		{"an unknown flag is refused", []string{"check", "--fix"}, 2, nil, "", "snowluma-mcp check: flag provided but not defined: -fix"},
		{"an argument is refused", []string{"check", "now"}, 2, nil, "", `unexpected argument "now"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			var ran *bool
			code, done := commandLine(tt.args, &stdout, &stderr, func(asJSON bool) int {
				ran = &asJSON
				return 7
			})
			assert.True(t, done)
			assert.Equal(t, tt.wantCode, code)
			assert.Equal(t, tt.wantJSON, ran)
			assert.Equal(t, tt.wantStdout, stdout.String())
			assert.Contains(t, stderr.String(), tt.wantStderr)
		})
	}
}

func boolPtr(b bool) *bool { return &b }
