package catalog

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPacingDocMatchesTheCatalog holds docs/pacing.md's two tables to the
// golden lists of delivery_test.go: every delivering action with its
// target params and reason, and every write that is not paced, grouped by
// why.
func TestPacingDocMatchesTheCatalog(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/pacing.md")
	require.NoError(t, err)
	doc := string(data)
	section := func(heading string) []string {
		i := strings.Index(doc, "\n"+heading+"\n")
		require.NotEqual(t, -1, i, "docs/pacing.md has no %q", heading)
		var rows []string
		for _, line := range strings.Split(doc[i+len(heading)+2:], "\n") {
			if strings.HasPrefix(line, "#") {
				break
			}
			if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "|---") {
				rows = append(rows, line)
			}
		}
		require.NotEmpty(t, rows, heading)
		return rows[1:] // the header
	}
	cells := func(row string) []string {
		parts := strings.Split(strings.Trim(row, "| "), " | ")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	code := regexp.MustCompile("`([^`]+)`")

	got := map[string]delivery{}
	for _, row := range section("#### Deliveries") {
		c := cells(row)
		require.Len(t, c, 3, row)
		var targets []string
		for _, m := range regexp.MustCompile("`([^`]+)` \\((group|user)\\)").FindAllStringSubmatch(c[1], -1) {
			targets = append(targets, m[1]+":"+m[2])
		}
		if strings.HasSuffix(c[1], ", required") {
			targets = append(targets, "required")
		}
		got[strings.Trim(c[0], "`")] = delivery{strings.Join(targets, " "), c[2]}
	}
	assert.Equal(t, deliveries, got)

	grouped := map[string]string{}
	for _, row := range section("#### Writes that are not paced") {
		c := cells(row)
		require.Len(t, c, 2, row)
		for _, m := range code.FindAllStringSubmatch(c[1], -1) {
			grouped[m[1]] = c[0]
		}
	}
	assert.Equal(t, notDeliveries, grouped)
}
