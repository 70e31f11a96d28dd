package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestARelativePathSaysWhy: a path starting with ~ is told that no shell
// expands it; any other relative path why it has no fixed meaning. Either
// way the refusal is a Problem naming the variable, which turns off
// automatic upload only.
func TestARelativePathSaysWhy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		value   string
		says    string
		notSays string
	}{
		{"a home-relative path", "~/snowluma-uploads", "~ is not expanded", ""},
		{"a bare tilde", "~", "~ is not expanded", ""},
		{"a relative path", "uploads", "the host decides the working directory", "~"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(map[string]string{"SNOWLUMA_MCP_UPLOAD_ROOT": tt.value}))
			require.NoError(t, err, "an optional service's setting does not stop the reading")
			require.Len(t, cfg.Disabled, 1)
			p := cfg.Disabled[0]
			assert.Equal(t, "SNOWLUMA_MCP_UPLOAD_ROOT", p.Var)
			assert.Contains(t, p.Why, "must be an absolute path")
			assert.Contains(t, p.Why, tt.says)
			if tt.notSays != "" {
				assert.NotContains(t, p.Why, tt.notSays)
			}
		})
	}
}

// TestExplainingIsDocsModeWithTheProblem: the explaining state's
// configuration connects to nothing and names what was refused.
func TestExplainingIsDocsModeWithTheProblem(t *testing.T) {
	t.Parallel()
	p := &Problem{Var: "SNOWLUMA_MCP_TIMEOUT_MS", Why: "must be a whole number"}
	cfg := Explaining(p)
	assert.Equal(t, ModeDocs, cfg.Mode)
	assert.Nil(t, cfg.Endpoint)
	assert.Nil(t, cfg.EventsURL)
	assert.Empty(t, cfg.TaskDir)
	assert.Empty(t, cfg.UploadRoot)
	assert.Same(t, p, cfg.Broken)
	assert.Equal(t, "SNOWLUMA_MCP_TIMEOUT_MS must be a whole number", p.Error())
}
