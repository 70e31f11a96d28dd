package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrustedUsers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		value string
		want  []int64
	}{
		{"leaves lockdown off when unset", "", nil},
		{"reads one QQ number", "10002", []int64{10002}},
		{"reads a number that came with a line break", "10002\n", []int64{10002}},
		{"reads commas and spaces, sorted and without repeats", " 10003, 10002 10003,\t3141592653 ", []int64{10002, 10003, 3141592653}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := Load(env(map[string]string{TrustedUsersVar: tt.value}))
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.TrustedUsers)
		})
	}
}

func TestTrustedUsersRefusesAMalformedList(t *testing.T) {
	t.Parallel()
	for name, value := range map[string]string{
		"a name":              "10002,alice-SECRETISH",
		"zero":                "0",
		"a negative number":   "-10002",
		"a fraction":          "10002.5",
		"only separators":     " , ,",
		"only spaces":         "   ",
		"only a tab":          "\t",
		"a line break":        "\n",
		"a number too large":  "99999999999999999999",
		"semicolons":          "10002;10003",
		"a token pasted here": "sl-e2e-SECRET-TOKEN",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Load(env(map[string]string{TrustedUsersVar: value}))
			require.Error(t, err)
			assert.Contains(t, err.Error(), TrustedUsersVar, "the message names the variable")
			assert.NotContains(t, err.Error(), value, "and never echoes it")
		})
	}
}
