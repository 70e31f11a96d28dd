package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/uiasset"
)

// TestMissingPanelIsAPackagingError: a binary compiled with an empty panel
// stops at start and says why, instead of serving a blank panel. Not
// parallel: it swaps loadPanel.
func TestMissingPanelIsAPackagingError(t *testing.T) {
	saved := loadPanel
	t.Cleanup(func() { loadPanel = saved })
	loadPanel = func() (string, error) { return "", uiasset.ErrNotBuilt }
	var stdout, stderr bytes.Buffer
	code := run(strings.NewReader(""), &stdout, &stderr, func(string) string { return "" }, nil)
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout.String(), "nothing on the protocol stream")
	assert.Contains(t, stderr.String(), "snowluma-mcp: packaging error: the message preview panel (uiasset/dist/index.html) is missing or empty: restore the committed file")
}
