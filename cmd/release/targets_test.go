package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTargetsAreNamedAsEachEcosystemNamesThem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target  target
		npm     string
		archive string
		exe     string
	}{
		{target{"linux", "amd64"}, "@snowluma-mcp/linux-x64", "snowluma-mcp_1.2.0_linux_amd64.tar.gz", "snowluma-mcp"},
		{target{"linux", "arm64"}, "@snowluma-mcp/linux-arm64", "snowluma-mcp_1.2.0_linux_arm64.tar.gz", "snowluma-mcp"},
		{target{"darwin", "amd64"}, "@snowluma-mcp/darwin-x64", "snowluma-mcp_1.2.0_darwin_amd64.tar.gz", "snowluma-mcp"},
		{target{"darwin", "arm64"}, "@snowluma-mcp/darwin-arm64", "snowluma-mcp_1.2.0_darwin_arm64.tar.gz", "snowluma-mcp"},
		{target{"windows", "amd64"}, "@snowluma-mcp/win32-x64", "snowluma-mcp_1.2.0_windows_amd64.zip", "snowluma-mcp.exe"},
		{target{"windows", "arm64"}, "@snowluma-mcp/win32-arm64", "snowluma-mcp_1.2.0_windows_arm64.zip", "snowluma-mcp.exe"},
	}
	require.Len(t, targets, len(tests), "a release has exactly these six targets")
	for i, tt := range tests {
		t.Run(tt.target.String(), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.target, targets[i])
			assert.Equal(t, tt.npm, tt.target.npmPackage())
			assert.Equal(t, tt.archive, tt.target.archive("1.2.0"))
			assert.Equal(t, tt.exe, tt.target.exe())
		})
	}
}

func TestParseTargets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		list    string
		want    []target
		wantErr string
	}{
		{"empty means all six", "", targets, ""},
		{"a subset, in the order given", "windows/arm64, linux/amd64", []target{{"windows", "arm64"}, {"linux", "amd64"}}, ""},
		{"an unknown target names the known ones", "linux/386", nil, `unknown target "linux/386": the release targets are linux/amd64, linux/arm64, darwin/amd64, darwin/arm64, windows/amd64, windows/arm64`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseTargets(tt.list)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
