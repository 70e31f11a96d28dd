//go:build !fakemarker

package catalog

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTheReleasedBinaryRefusesTheFakesMarker: only the e2e suite's build
// lets the fake SnowLuma's marker through (fake_marker.go).
func TestTheReleasedBinaryRefusesTheFakesMarker(t *testing.T) {
	t.Parallel()
	a, ok := load(t).Lookup("get_status")
	assert.True(t, ok)
	assert.Error(t, a.Unknown(json.RawMessage(`{"_fake":"tag:x"}`)))
	assert.Empty(t, extraKeys)
}
