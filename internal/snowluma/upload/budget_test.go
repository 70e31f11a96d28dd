package upload

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

// worstNames are file names whose JSON encoding is as long as it gets:
// control characters, HTML-escaped and invalid bytes take six bytes each.
var worstNames = []struct {
	name string
	file string
}{
	{"control characters", strings.Repeat("\x01", 255)},
	{"characters encoding/json escapes for HTML", strings.Repeat("<>&", 85)},
	{"invalid UTF-8", strings.Repeat("\xff", 255)},
	{"line separators", strings.Repeat("\u2028", 85)},
	{"multi-byte characters with an extension", strings.Repeat("文件", 42) + ".tar.gz"},
	{"control characters with a long extension", strings.Repeat("\x1f", 200) + "." + strings.Repeat("\x1f", 54)},
	{"a name far longer than any file system allows", strings.Repeat("\x02", 100000) + ".bin"},
}

// TestLargestChunkRequestFitsTheBodyCap builds the real request body (the
// OneBot client's wrapper around chunkParams) for the largest accepted
// chunk, the longest stream_id SnowLuma allows, the longest numbers and a
// worst-case name, and checks that SnowLuma would read it.
func TestLargestChunkRequestFitsTheBodyCap(t *testing.T) {
	t.Parallel()
	var size atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		size.Store(n)
		panic(http.ErrAbortHandler)
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	client := onebot.New(u, "", onebot.StreamTimeouts{})
	chunk := make([]byte, MaxChunkBytes)
	for _, tt := range worstNames {
		t.Run(tt.name, func(t *testing.T) {
			name := wireName(tt.file)
			params := chunkParams(nil, strings.Repeat("s", maxStreamIDLen), name, math.MaxInt64-1, math.MaxInt64, math.MaxInt64, chunk)
			_, _ = client.With(nil).Stream(context.Background(), Action, params)
			assert.LessOrEqual(t, size.Load(), int64(BodyCap), "SnowLuma drops a body over its cap without answering")
			assert.Greater(t, size.Load(), int64(BodyCap-4096), "the budget is not wasted")
		})
	}
}

func TestWireNameBoundsTheEncodedName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		file    string
		want    string // "" when only the bounds are checked
		wantExt string
	}{
		{"keeps an ordinary name", "report.bin", "report.bin", ".bin"},
		{"keeps a name that just fits", strings.Repeat("a", MaxNameJSON-2), strings.Repeat("a", MaxNameJSON-2), ""},
		{"shortens a name one byte too long, keeping the extension", strings.Repeat("a", MaxNameJSON-1) + ".txt", strings.Repeat("a", MaxNameJSON-6) + ".txt", ".txt"},
		{"drops an extension too long to keep", "a." + strings.Repeat("e", 300), "", ""},
	}
	for _, w := range worstNames {
		tests = append(tests, struct {
			name    string
			file    string
			want    string
			wantExt string
		}{"shortens a name of " + w.name, w.file, "", ""})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := wireName(tt.file)
			assert.LessOrEqual(t, jsonLen(got), MaxNameJSON)
			if jsonLen(tt.file) > MaxNameJSON {
				assert.Greater(t, jsonLen(got), MaxNameJSON-12, "no more is cut than needed")
			}
			if tt.want != "" {
				assert.Equal(t, tt.want, got)
			}
			if tt.wantExt != "" {
				assert.True(t, strings.HasSuffix(got, tt.wantExt))
			}
			if utf8.ValidString(tt.file) {
				assert.True(t, utf8.ValidString(got), "no character is split")
			}
		})
	}
}
