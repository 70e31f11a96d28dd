package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStraysNameWhatTheServerIgnores(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-secret"
	tests := []struct {
		name      string
		environ   []string
		windows   bool
		want      []string // the stray names, in order
		closest   string   // of the first stray
		fixSays   string   // of the first stray
		noSuggest bool
	}{
		{"a missing letter of a safety setting", []string{"SNOWLUMA_MCP_TRUSTED_USER=" + secret}, false,
			[]string{"SNOWLUMA_MCP_TRUSTED_USER"}, TrustedUsersVar, "did you mean SNOWLUMA_MCP_TRUSTED_USERS?", false},
		{"another word for the pace", []string{"SNOWLUMA_MCP_SEND_PACING=" + secret}, false,
			[]string{"SNOWLUMA_MCP_SEND_PACING"}, "SNOWLUMA_MCP_SEND_PACE", "did you mean SNOWLUMA_MCP_SEND_PACE?", false},
		{"two neighbours swapped", []string{"SNOWLUMA_MCP_ENDPIONT=" + secret}, false,
			[]string{"SNOWLUMA_MCP_ENDPIONT"}, "SNOWLUMA_MCP_ENDPOINT", "did you mean", false},
		{"the README's word for lockdown points at the trusted users", []string{"SNOWLUMA_MCP_LOCKDOWN=" + secret}, false,
			[]string{"SNOWLUMA_MCP_LOCKDOWN"}, TrustedUsersVar, "lockdown is turned on by SNOWLUMA_MCP_TRUSTED_USERS", false},
		{"a name like no setting suggests none", []string{"SNOWLUMA_MCP_FUTURE_FEATURE=" + secret}, false,
			[]string{"SNOWLUMA_MCP_FUTURE_FEATURE"}, "", "Configuration table", true},
		{"lower case is not read where names are case-sensitive", []string{"snowluma_mcp_mode=" + secret}, false,
			[]string{"snowluma_mcp_mode"}, "SNOWLUMA_MCP_MODE", "case-sensitive", false},
		{"lower case is the same variable on Windows", []string{"snowluma_mcp_mode=" + secret}, true, nil, "", "", false},
		{"every setting and hook is known", []string{"SNOWLUMA_MCP_MODE=write", "SNOWLUMA_MCP_TRUSTED_USERS=1", RuntimeStatsVar + "=1", CPUProfileVar + "=/tmp/p"}, false, nil, "", "", false},
		{"an empty value is left out", []string{"SNOWLUMA_MCP_LOCKDOWN="}, false, nil, "", "", false},
		{"other programs' variables are not ours", []string{"SNOWLUMA_TOKEN=" + secret, "PATH=/bin", "=C:=C:\\"}, false, nil, "", "", false},
		{"each stray is named once, in order", []string{"SNOWLUMA_MCP_LOCKDOWN=1", "SNOWLUMA_MCP_MODE=read", "SNOWLUMA_MCP_TOKN=" + secret}, false,
			[]string{"SNOWLUMA_MCP_LOCKDOWN", "SNOWLUMA_MCP_TOKN"}, TrustedUsersVar, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := strays(tt.environ, tt.windows)
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
				assert.NotContains(t, s.Warning(), secret, "a value is never repeated")
				assert.True(t, strings.HasPrefix(s.Warning(), s.Name+" is not a variable this server reads"), s.Warning())
			}
			require.Equal(t, tt.want, names)
			if len(got) == 0 {
				return
			}
			assert.Equal(t, tt.closest, got[0].Closest)
			assert.Contains(t, got[0].Fix, tt.fixSays)
			assert.Equal(t, tt.noSuggest, !strings.Contains(got[0].Warning(), "did you mean") && got[0].Closest == "")
		})
	}
}

func TestVariablesAreWhatLoadReads(t *testing.T) {
	t.Parallel()
	vars := Variables()
	for _, v := range []string{"SNOWLUMA_MCP_ENDPOINT", TrustedUsersVar, "SNOWLUMA_MCP_SEND_PACE", "SNOWLUMA_MCP_SEND_WAIT_MS"} {
		assert.Contains(t, vars, v)
	}
	assert.NotContains(t, vars, RuntimeStatsVar, "a hook is not a setting")
	for _, v := range vars {
		assert.True(t, strings.HasPrefix(v, Prefix), v)
	}
}

func TestNoticeNamesEachIgnoredVariableAndWhatItLikelyMeant(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-secret"
	tests := []struct {
		name    string
		environ []string
		says    []string
	}{
		{"none says nothing", []string{"SNOWLUMA_MCP_MODE=read"}, nil},
		{"a misspelt setting with the one it likely meant", []string{"SNOWLUMA_MCP_TRUSTED_USER=" + secret},
			[]string{"SNOWLUMA_MCP_TRUSTED_USER (likely meant SNOWLUMA_MCP_TRUSTED_USERS)", "is off"}},
		{"lockdown by its README name points at the trusted users", []string{"SNOWLUMA_MCP_LOCKDOWN=" + secret},
			[]string{"SNOWLUMA_MCP_LOCKDOWN (likely meant SNOWLUMA_MCP_TRUSTED_USERS)"}},
		{"a name like no setting is named alone", []string{"SNOWLUMA_MCP_FUTURE_FEATURE=" + secret, "SNOWLUMA_MCP_TOKN=" + secret},
			[]string{"SNOWLUMA_MCP_FUTURE_FEATURE, SNOWLUMA_MCP_TOKN (likely meant SNOWLUMA_MCP_TOKEN);"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Notice(strays(tt.environ, false))
			if tt.says == nil {
				assert.Empty(t, got)
				return
			}
			for _, s := range tt.says {
				assert.Contains(t, got, s)
			}
			assert.NotContains(t, got, secret, "a value is never repeated")
			assert.Equal(t, 1, strings.Count(got, "."), "one sentence: %s", got)
			assert.True(t, strings.HasSuffix(got, "."), got)
		})
	}
}
