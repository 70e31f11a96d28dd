package e2e

// Download failures (BASE-7, CANCEL-1): whatever breaks a download (a
// stream cut short, chunks out of order, totals that disagree, the file
// limit or the directory quota, announced or discovered while writing, a
// stream that stalls or never starts) is a tool error of a known kind, the
// request is never repeated, and no partial file survives. A failed
// terminal frame is a tool error that carries SnowLuma's own reason.

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestFailedDownloadsLeaveNoPartialFile(t *testing.T) {
	t.Parallel()
	seed := map[string]any{"file": fake.FileSeed, "chunk_size": 10000} // 16 chunks
	tests := []struct {
		name        string
		env         []string
		params      map[string]any
		faults      string
		existing    int // bytes of a file already in the download dir
		wantKind    string
		wantText    []string // substrings of the diagnostics message
		wantOutcome string   // "" to leave it to the general checks
		clientGone  bool     // the product must have closed the connection
		// brokenAdvice: the next step names a broken stream, not a wrong
		// endpoint.
		brokenAdvice bool
	}{
		{name: "a stream that ends without its terminal frame", params: seed, faults: "truncate:6", wantKind: "stream_broken", brokenAdvice: true},
		{name: "a connection cut in the middle of the file", params: seed, faults: "cut:6", wantKind: "transport"},
		{name: "a chunk out of order", params: seed, faults: "outoforder", wantKind: "stream_broken", brokenAdvice: true},
		{name: "file_complete reporting more bytes than arrived", params: seed, faults: "badtotal", wantKind: "stream_broken", brokenAdvice: true},
		{name: "file_complete reporting more chunks than arrived", params: seed, faults: "badchunks", wantKind: "stream_broken", brokenAdvice: true},
		{name: "more bytes than file_info announced", params: seed, faults: "announce:100", wantKind: "stream_broken", brokenAdvice: true},
		{name: "fewer bytes than file_info announced", params: seed, faults: "announce:999999", wantKind: "stream_broken", brokenAdvice: true},
		{name: "a failed terminal frame after some chunks", params: seed, faults: "failafter:6",
			wantKind: "stream_failed", wantText: []string{"injected stream failure after 6 frames"}, wantOutcome: "failed"},
		{name: "an announced size over the file limit", env: []string{"SNOWLUMA_MCP_MAX_FILE_BYTES", "100000"},
			params: seed, wantKind: "limit"},
		{name: "an oversize announcement for a small file", env: []string{"SNOWLUMA_MCP_MAX_FILE_BYTES", "1000"},
			params: map[string]any{"file": fake.FileHello}, faults: "announce:5000000", wantKind: "limit"},
		{name: "an unannounced size growing past the file limit", env: []string{"SNOWLUMA_MCP_MAX_FILE_BYTES", "100000"},
			params: seed, faults: "unannounced", wantKind: "limit"},
		{name: "a URL source growing past the file limit", env: []string{"SNOWLUMA_MCP_MAX_FILE_BYTES", "20000"},
			params: map[string]any{"file": fake.FileURL}, wantKind: "limit"},
		{name: "an announced size over the directory quota", env: []string{"SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", "100000"},
			params: seed, wantKind: "limit"},
		{name: "an unannounced size growing past the directory quota", env: []string{"SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", "100000"},
			params: seed, faults: "unannounced", wantKind: "limit"},
		{name: "a quota already partly used by files in the directory", env: []string{"SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", "30000"},
			params: map[string]any{"file": fake.VoiceID}, existing: 15000, wantKind: "limit"},
		{name: "a stream that stalls past the idle timeout", env: []string{"SNOWLUMA_MCP_STREAM_IDLE_TIMEOUT_MS", "400"},
			params: seed, faults: "slowframes:20000", wantKind: "timeout", clientGone: true},
		{name: "a stream that does not start within the connect timeout", env: []string{"SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS", "400"},
			params: seed, faults: "slow:20000", wantKind: "timeout", clientGone: true},
		{name: "a failed terminal frame carries SnowLuma's reason", params: map[string]any{"file": "no-such-file.jpg"},
			wantKind: "stream_failed", wantText: []string{fake.WordingFileNotFound, "100"}, wantOutcome: "failed"},
		{name: "a failed terminal for an empty target", params: map[string]any{"file": ""},
			wantKind: "stream_failed", wantText: []string{fake.WordingFileRequired}, wantOutcome: "failed"},
		{name: "a refused local path", params: map[string]any{"file": fake.OutsideFile},
			wantKind: "stream_failed", wantText: []string{fake.WordingLocalForbidden}, wantOutcome: "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				env, dirs := streamEnv(t, tt.env...)
				var before []string
				if tt.existing > 0 {
					writeFile(t, dirs.download, "kept.bin", make([]byte, tt.existing))
					before = []string{"kept.bin"}
				}
				s := start(t, version, env)
				c := s.run(t, "invoke_action", "download_file_stream", tt.params, tt.faults)
				require.True(t, c.res.IsError, "the download must fail: %s", c.res.Text)
				assert.Equal(t, "null", string(c.res.Result))
				assert.Equal(t, tt.wantKind, c.res.Diag.Kind, c.res.Diag.Message)
				for _, want := range tt.wantText {
					assert.Contains(t, c.res.Diag.Message, want)
				}
				if tt.wantOutcome != "" {
					assert.Equal(t, tt.wantOutcome, c.res.Diag.Outcome)
				}
				assert.NotEmpty(t, c.res.Diag.NextStep)
				if tt.brokenAdvice {
					assert.Contains(t, c.res.Diag.NextStep, "stream broke off")
					assert.NotContains(t, c.res.Diag.NextStep, "SNOWLUMA_MCP_ENDPOINT", "the endpoint is not the problem")
				}

				assert.Equal(t, before, entries(t, dirs.download), "no partial file, and nothing else, is left")
				dirs.assertOnlyInDownloadDir(t)
				if tt.existing > 0 {
					info, err := os.Stat(filepath.Join(dirs.download, "kept.bin"))
					require.NoError(t, err)
					assert.Equal(t, int64(tt.existing), info.Size(), "existing files are untouched")
				}
				assert.Len(t, c.sent(t), 1, "one request: nothing is retried")
				if tt.clientGone {
					require.Eventually(t, func() bool {
						sent := c.sent(t)
						return len(sent) == 1 && sent[0].ClientGone
					}, safety, 10*time.Millisecond, "the abandoned stream's connection must be closed")
				}
			})
		})
	}
}

// TestQuotaCountsWhatTheDirectoryHolds: saved downloads use up the quota
// for later ones, and a file the user removed frees it again.
func TestQuotaCountsWhatTheDirectoryHolds(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		env, dirs := streamEnv(t, "SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", "200000")
		s := start(t, version, env)
		seed := map[string]any{"file": fake.FileSeed}

		first := s.run(t, "invoke_action", "download_file_stream", seed, "")
		require.False(t, first.res.IsError, first.res.Text)
		var saved savedResult
		first.res.decodeResult(t, &saved)

		second := s.run(t, "invoke_action", "download_file_stream", seed, "")
		assert.True(t, second.res.IsError, "two copies do not fit in the quota")
		assert.Equal(t, "limit", second.res.Diag.Kind)
		assert.Equal(t, []string{saved.SavedFile.FileName}, entries(t, dirs.download), "no partial file, the first one kept")

		require.NoError(t, os.Remove(saved.SavedFile.Path))
		third := s.run(t, "invoke_action", "download_file_stream", seed, "")
		assert.False(t, third.res.IsError, "the removed file no longer counts: %s", third.res.Text)
		assert.Len(t, entries(t, dirs.download), 1)
	})
}
