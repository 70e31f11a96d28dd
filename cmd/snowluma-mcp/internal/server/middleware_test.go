package server

import (
	"io"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// TestMiddlewareOrder holds the receiving middleware to layerPlaces, the
// one list of the order: with every part present every place is built, in
// order, and an absent part only leaves its own layer out.
func TestMiddlewareOrder(t *testing.T) {
	t.Parallel()
	pass := func(next mcp.MethodHandler) mcp.MethodHandler { return next }
	full := layerParts{log: io.Discard, parked: newArgumentBook(), listens: &listens{}, cache: pass, sessions: pass, tasks: pass, events: &hub.Hub{}}
	placed := func(absent ...string) []string {
		var names []string
		for _, pl := range layerPlaces {
			if !slices.Contains(absent, pl.name) {
				names = append(names, pl.name)
			}
		}
		return names
	}
	tests := []struct {
		name  string
		parts layerParts
		want  []string
	}{
		{"every part", full, placed()},
		{"no events, tasks or cache", layerParts{log: io.Discard, sessions: pass}, placed("parkedArguments", "listens", "cache", "tasksGate", "eventResources")},
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

// TestEveryLayerSaysWhy: each place gives the reason for where it sits.
func TestEveryLayerSaysWhy(t *testing.T) {
	t.Parallel()
	for _, pl := range layerPlaces {
		assert.NotEmpty(t, pl.why, pl.name)
	}
}
