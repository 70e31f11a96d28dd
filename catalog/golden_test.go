package catalog

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGoldenContracts pins a few full contracts so that any change to them is
// a visible diff in review. Run with -update after an intended change.
func TestGoldenContracts(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, name := range []string{"get_msg", "send_group_msg", "get_file", "upload_forward_msg", "upload_file_stream", "set_restart", "_get_model_show"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, ok := c.Lookup(name)
			require.True(t, ok)
			got, err := json.MarshalIndent(a, "", "  ")
			require.NoError(t, err)
			path := filepath.Join("testdata", "golden", strings.TrimPrefix(name, "_")+".json")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./catalog -update")
			assert.Equal(t, string(want), string(got)+"\n")
		})
	}
}
