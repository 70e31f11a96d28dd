package e2e

// tools/list per mode: which tools exist, that each advertises an
// outputSchema, and the annotations that tell clients what a tool may do
// (BASE-2, BASE-4).

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var docsTools = []string{"list_actions", "get_action", "search_actions", "list_categories", "get_runtime_info"}

func TestToolsListDependsOnMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  func() map[string]string
		want []string
	}{
		{"docs mode offers only the catalog tools and runtime info", docsEnv, docsTools},
		{"read mode adds query_action", readEnv, append(append([]string{}, docsTools...), "query_action")},
		{"write mode adds invoke_action", writeEnv, append(append([]string{}, docsTools...), "query_action", "invoke_action")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, tt.env())
				assert.ElementsMatch(t, tt.want, s.toolNames())
				for name, tool := range s.tools {
					assert.NotNil(t, tool.OutputSchema, "%s has no outputSchema", name)
					assert.NotNil(t, tool.InputSchema, "%s has no inputSchema", name)
					assert.NotEmpty(t, tool.Description, "%s has no description", name)
				}
			})
		})
	}
}

func TestToolAnnotationsDescribeWhatToolsMayDo(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		for _, name := range docsTools {
			a := s.tools[name].Annotations
			require.NotNil(t, a, "%s has no annotations", name)
			assert.True(t, a.ReadOnlyHint, "%s is read-only", name)
		}

		q := s.tools["query_action"].Annotations
		require.NotNil(t, q)
		assert.True(t, q.ReadOnlyHint, "query_action is read-only")
		assert.True(t, q.DestructiveHint == nil || !*q.DestructiveHint, "query_action is not destructive")

		inv := s.tools["invoke_action"].Annotations
		require.NotNil(t, inv)
		assert.False(t, inv.ReadOnlyHint, "invoke_action is not read-only")
		require.NotNil(t, inv.DestructiveHint)
		assert.True(t, *inv.DestructiveHint, "invoke_action is destructive")
		require.NotNil(t, inv.OpenWorldHint)
		assert.True(t, *inv.OpenWorldHint, "invoke_action reaches the open world")
	})
}
