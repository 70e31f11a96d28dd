package catalog

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildRefusesAnAuthoredInputSchema: an authored file is an Action
// less its input schema, which Build derives from the params, so a file
// that writes one is refused rather than silently overwritten.
func TestBuildRefusesAnAuthoredInputSchema(t *testing.T) {
	t.Parallel()
	src := fstest.MapFS{
		"catalog.json":       {Data: []byte(`{"version":"v","categories":[{"name":"消息","slug":"message"}]}`)},
		"message/get_x.json": {Data: []byte(`{"name":"get_x","category":"消息","summary":"s","readOnly":true,"params":[],"returnsSchema":null,"inputSchema":{"type":"object"}}`)},
	}
	_, err := Build(src)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "inputSchema is derived from params, not authored")
}
