package config

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// TestEverySettingIsDescribed: the docs' tables are written from
// Descriptions, so it names every setting Load reads, once, and nothing
// else, each in both languages.
func TestEverySettingIsDescribed(t *testing.T) {
	t.Parallel()
	var names []string
	for _, d := range Descriptions() {
		names = append(names, d.Name)
		for _, w := range []lang.Text{d.Meaning, d.Accepts, d.Absent} {
			assert.NotEmpty(t, w.EN, "%s: English words", d.Name)
			assert.NotEmpty(t, w.ZH, "%s: Chinese words", d.Name)
		}
	}
	assert.ElementsMatch(t, Variables(), names)
}

// TestDescribedDefaultsAreLoadsDefaults: a default the docs state as a
// number is the one Load uses when the variable is absent.
func TestDescribedDefaultsAreLoadsDefaults(t *testing.T) {
	t.Parallel()
	cfg, _, err := Load(func(string) string { return "" })
	require.NoError(t, err)
	want := map[string]int64{
		"SNOWLUMA_MCP_TIMEOUT_MS":                cfg.Timeout.Milliseconds(),
		"SNOWLUMA_MCP_MAX_FILE_BYTES":            cfg.MaxFileBytes,
		"SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES":      cfg.DownloadQuotaBytes,
		"SNOWLUMA_MCP_MAX_STREAMS":               int64(cfg.MaxStreams),
		"SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS": cfg.StreamConnectTimeout.Milliseconds(),
		"SNOWLUMA_MCP_STREAM_IDLE_TIMEOUT_MS":    cfg.StreamIdleTimeout.Milliseconds(),
		"SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES":        int64(cfg.UploadChunkBytes),
		"SNOWLUMA_MCP_SEND_WAIT_MS":              cfg.SendPace.Wait.Milliseconds(),
	}
	seen := 0
	for _, d := range Descriptions() {
		n, ok := want[d.Name]
		if !ok {
			continue
		}
		seen++
		for _, absent := range []string{d.Absent.EN, d.Absent.ZH} {
			first, _, _ := strings.Cut(absent, " ")
			first, _, _ = strings.Cut(first, "（")
			got, err := strconv.ParseInt(first, 10, 64)
			if assert.NoError(t, err, "%s: the default is stated as a number first: %q", d.Name, absent) {
				assert.Equal(t, n, got, "%s: the default Load uses", d.Name)
			}
		}
	}
	assert.Equal(t, len(want), seen)
}
