//go:build fakemarker

package catalog

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestTheE2EVariantLetsTheFakesMarkerThrough(t *testing.T) {
	t.Parallel()
	assert.Equal(t, fake.Marker, FakeMarker, "the key the fake reads")
	for _, a := range load(t).Actions() {
		assert.NoError(t, a.Unknown(json.RawMessage(`{"_fake":"tag:x"}`)), a.Name)
		assert.Error(t, a.Unknown(json.RawMessage(`{"_fake":"tag:x","zz_never_read":1}`)), a.Name)
	}
}
