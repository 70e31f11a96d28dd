package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMainPackageOffersEveryPlatformAtItsOwnVersion(t *testing.T) {
	t.Parallel()
	var m map[string]any
	require.NoError(t, json.Unmarshal(jsonFile(mainManifest("1.2.0", targets)), &m))
	assert.Equal(t, "snowluma-mcp", m["name"])
	assert.Equal(t, "1.2.0", m["version"])
	assert.Equal(t, map[string]any{"snowluma-mcp": "bin/snowluma-mcp.js"}, m["bin"])
	assert.Equal(t, map[string]any{
		"@snowluma-mcp/linux-x64": "1.2.0", "@snowluma-mcp/linux-arm64": "1.2.0",
		"@snowluma-mcp/darwin-x64": "1.2.0", "@snowluma-mcp/darwin-arm64": "1.2.0",
		"@snowluma-mcp/win32-x64": "1.2.0", "@snowluma-mcp/win32-arm64": "1.2.0",
	}, m["optionalDependencies"])
	assert.NotContains(t, m, "dependencies", "the launcher needs nothing but node")
	assert.Contains(t, string(jsonFile(mainManifest("1.2.0", targets))), `"node": ">=18"`, "written as npm writes it, not HTML-escaped")
}

func TestPlatformPackagesAreLimitedToTheirPlatform(t *testing.T) {
	t.Parallel()
	for _, tt := range targets {
		t.Run(tt.String(), func(t *testing.T) {
			t.Parallel()
			m := platformManifest("1.2.0", tt)
			assert.Equal(t, tt.npmPackage(), m.Name)
			assert.Equal(t, "1.2.0", m.Version)
			assert.Equal(t, []string{tt.npmOS()}, m.OS)
			assert.Equal(t, []string{tt.npmCPU()}, m.CPU)
			assert.Equal(t, []string{"bin/" + tt.exe()}, m.Files)
			assert.Empty(t, m.Bin, "only the launcher is put on the PATH")
		})
	}
}

func TestVersionsNPMWouldRefuseAreRefusedFirst(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version string
		ok      bool
	}{
		{"1.2.0", true},
		{"1.2.0-rc.1", true},
		{"0.0.0-20261202175506-cc956e9551eb+dirty", true},
		{"devel", false},
		{"devel-cc956e9551eb", false},
		{"1.2", false},
		{"01.2.3", false},
		{"v1.2.3", false},
		{"1.2.3-", false},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			t.Parallel()
			err := checkVersion(tt.version)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "make dist VERSION=1.2.3", "the message says what to do")
			}
		})
	}
}

func TestSourceDate(t *testing.T) {
	t.Parallel()
	commit := time.Date(2026, 12, 2, 17, 55, 6, 0, time.FixedZone("CET", 3600))
	tests := []struct {
		name    string
		epoch   string
		commit  time.Time
		want    time.Time
		wantErr bool
	}{
		{"SOURCE_DATE_EPOCH wins", "1767225600", commit, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{"else the commit's time, in UTC", "", commit, commit.UTC(), false},
		{"else the earliest time a zip can hold", "", time.Time{}, zipEpoch, false},
		{"a malformed SOURCE_DATE_EPOCH is an error", "yesterday", commit, time.Time{}, true},
		{"a SOURCE_DATE_EPOCH before 1980 is an error", "0", commit, time.Time{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := sourceDate(tt.epoch, tt.commit)
			if tt.wantErr {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "SOURCE_DATE_EPOCH")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
