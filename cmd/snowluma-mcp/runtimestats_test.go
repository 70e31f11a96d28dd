package main

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRuntimeStatsIsOneParsableLine: the soak tests parse this line from
// stderr, so its shape is pinned here.
func TestRuntimeStatsIsOneParsableLine(t *testing.T) {
	var buf bytes.Buffer
	writeStats(&buf)
	assert.Regexp(t, regexp.MustCompile(`^snowluma-mcp: runtime stats: goroutines=[1-9]\d* heap_alloc=[1-9]\d* heap_objects=[1-9]\d* sys=[1-9]\d*\n$`), buf.String())
}
