package stages

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
)

func TestDefaultOrder(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	var names []string
	for _, s := range Default(Deps{Config: &config.Config{Mode: config.ModeDocs}, Catalog: cat, Log: io.Discard, Now: time.Now}) {
		names = append(names, s.Name())
	}
	assert.Equal(t, []string{"trace", "calllog", "envelope", "recovery", "gate", "input", "validate", "deadline", "progress", "execute"}, names)
}
