package content

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// TestReadmeLockdownNamesWhatTheFilterDoes holds the README's Lockdown
// section, and its Chinese translation, to this package: each names every
// reason a marker can give, the marker's members, and every action the
// catalog declares content for.
func TestReadmeLockdownNamesWhatTheFilterDoes(t *testing.T) {
	t.Parallel()
	var names []string
	for why := range placeholders {
		names = append(names, why)
	}
	cat, err := catalog.Load()
	require.NoError(t, err)
	for _, a := range cat.Actions() {
		if len(a.ThirdParty) > 0 {
			names = append(names, a.Name)
		}
	}
	for _, tt := range []struct{ file, heading string }{
		{"README.md", "### Lockdown\n"},
		{"README.zh-CN.md", "### 锁定\n"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			readme, err := os.ReadFile(filepath.Join("..", "..", tt.file))
			require.NoError(t, err)
			_, section, ok := strings.Cut(string(readme), tt.heading)
			require.True(t, ok, "%s has a Lockdown section", tt.file)
			section, _, _ = strings.Cut(section, "\n## ")
			for _, member := range []string{markerKey, "author", "claimed_author", "field_authors", "trusted", "nested", "withheld"} {
				assert.Contains(t, section, `"`+member+`"`, "the Lockdown section names the marker's %s", member)
			}
			for _, n := range names {
				assert.Contains(t, section, "`"+n+"`", "the Lockdown section names %s", n)
			}
		})
	}
}
