package download

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// TestRefusalOnTheAnnouncedSizeIsMarkedUnsent: a download refused on
// file_info's size, before any byte was written, is marked as having
// changed nothing; a limit crossed while writing is not.
func TestRefusalOnTheAnnouncedSizeIsMarkedUnsent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		frames     []string
		maxFile    int64
		quota      int64
		wantUnsent bool
	}{
		{"an announced size over the file limit", script("big", "0123456789"), 5, 1000, true},
		{"an announced size over the directory quota", script("big", "0123456789"), 100, 5, true},
		{"an unannounced file growing past the file limit", []string{info("u", 0), chunkFrame(0, "123"), chunkFrame(1, "456"), completeFrame("u", 2, 6)}, 5, 1000, false},
		{"an unannounced file growing past the quota", []string{info("u", 0), chunkFrame(0, "123"), chunkFrame(1, "456"), completeFrame("u", 2, 6)}, 100, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			_, err := Save(&frames{list: tt.frames}, Limits{Dir: dir, MaxFile: tt.maxFile, Quota: NewQuota(dir, tt.quota)}, nil)
			require.Error(t, err)
			assert.Equal(t, fault.CodeLimit, fault.CodeOf(err), err.Error())
			assert.Equal(t, tt.wantUnsent, fault.NothingSent(err))
		})
	}
}
