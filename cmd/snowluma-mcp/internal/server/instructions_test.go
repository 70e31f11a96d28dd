package server

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
)

// TestInstructionsNameIgnoredVariables: the agent does not see stderr, so
// the instructions name the variables the server ignores and what each
// likely meant, in one sentence after what they say otherwise, in the
// explaining state too; with none, they say nothing of it.
func TestInstructionsNameIgnoredVariables(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	if !assert.NoError(t, err) {
		return
	}
	tests := []struct {
		name    string
		broken  *config.Problem
		environ []string
		begins  string
		says    string
	}{
		{"none says nothing of them", nil, []string{"SNOWLUMA_MCP_MODE=read"}, "snowluma-mcp documents", ""},
		{"a misspelt setting after what the mode offers", nil, []string{"SNOWLUMA_MCP_TRUSTED_USER=hunter2"}, "snowluma-mcp documents",
			"SNOWLUMA_MCP_TRUSTED_USER (likely meant " + config.TrustedUsersVar + ")"},
		{"in the explaining state, after what is wrong", &config.Problem{Var: "SNOWLUMA_MCP_TIMEOUT_MS", Why: "must be a whole number"},
			[]string{"SNOWLUMA_MCP_FROM_A_NEWER_HOST=hunter2"}, "snowluma-mcp is not configured", "SNOWLUMA_MCP_FROM_A_NEWER_HOST; tell the user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := &config.Config{Mode: config.ModeRead, Broken: tt.broken, Strays: config.Strays(tt.environ)}
			got := instructions(cfg, handlers.All(&handlers.Deps{Catalog: cat, Config: cfg}), false)
			assert.Regexp(t, "^"+tt.begins, got)
			assert.NotContains(t, got, "hunter2", "a value is never shown")
			if tt.says == "" {
				assert.NotContains(t, got, "Ignored")
				return
			}
			assert.Contains(t, got, tt.says)
			assert.True(t, strings.HasSuffix(got, " "+config.Notice(cfg.Strays)), "the notice follows the rest: %s", got)
		})
	}
}

// TestAMistypedModeIsSaidWithoutDoubledPunctuation: the suggestion for a
// mistyped mode ends in a question mark, and the sentence the
// instructions put around it must not add a full stop after it.
func TestAMistypedModeIsSaidWithoutDoubledPunctuation(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	if !assert.NoError(t, err) {
		return
	}
	_, _, err = config.Load(func(k string) string { return map[string]string{config.ModeVar: "red"}[k] })
	var broken *config.Problem
	if !assert.ErrorAs(t, err, &broken) {
		return
	}
	cfg := config.Explaining(broken)
	got := instructions(cfg, handlers.All(&handlers.Deps{Catalog: cat, Config: cfg}), false)
	assert.Contains(t, got, "did you mean read?")
	assert.NotRegexp(t, `\?[.;]`, got)
}
