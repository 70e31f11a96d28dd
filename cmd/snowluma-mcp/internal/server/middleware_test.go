package server

import (
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// TestMiddlewareOrder pins the receiving middleware in the order
// receivingLayers gives a reason for, with every part present, and shows
// that an absent part only leaves its own layer out.
func TestMiddlewareOrder(t *testing.T) {
	t.Parallel()
	pass := func(next mcp.MethodHandler) mcp.MethodHandler { return next }
	full := layerParts{log: io.Discard, listens: &listens{}, cache: pass, sessions: pass, tasks: pass, events: &hub.Hub{}}
	tests := []struct {
		name  string
		parts layerParts
		want  []string
	}{
		{"every part", full, []string{"recover", "listens", "cache", "legacyShapes", "notFoundCodes", "legacySessions", "appsGate", "tasksGate", "eventResources"}},
		{"no events, tasks or cache", layerParts{log: io.Discard, sessions: pass}, []string{"recover", "legacyShapes", "notFoundCodes", "legacySessions", "appsGate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var names []string
			for _, l := range receivingLayers(tt.parts) {
				names = append(names, l.name)
			}
			assert.Equal(t, tt.want, names)
		})
	}
}
