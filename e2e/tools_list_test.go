package e2e

// tools/list per mode: which tools exist, that each advertises an
// outputSchema, and the annotations that tell clients what a tool may do
// (BASE-2, BASE-4).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listed is the tools a server lists in one variant (docs, read, write,
// read-events, write-events; tasks for the extension's extra tools), as the
// handlers' golden test commits them. A tool that vanishes from the
// binary's list fails the tests that compare against it.
func listed(t *testing.T, variant string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "handlers", "testdata", "tools.json"))
	require.NoError(t, err)
	var lists map[string][]string
	require.NoError(t, json.Unmarshal(b, &lists))
	names, ok := lists[variant]
	require.True(t, ok, "handlers/testdata/tools.json has no %q list", variant)
	return names
}

func TestToolsListDependsOnMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     func() map[string]string
		variant string
	}{
		{"docs mode offers only the catalog tools, runtime info and the message preview", docsEnv, "docs"},
		{"read mode adds query_action and its input twin", readEnv, "read"},
		{"write mode adds invoke_action and its input twin", writeEnv, "write"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, tt.env())
				assert.ElementsMatch(t, listed(t, tt.variant), s.toolNames())
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
		for _, name := range listed(t, "docs") {
			a := s.tools[name].Annotations
			require.NotNil(t, a, "%s has no annotations", name)
			assert.True(t, a.ReadOnlyHint, "%s is read-only", name)
		}

		for _, name := range []string{"query_action", "query_action_with_input"} {
			q := s.tools[name].Annotations
			require.NotNil(t, q, name)
			assert.True(t, q.ReadOnlyHint, "%s is read-only", name)
			assert.True(t, q.DestructiveHint == nil || !*q.DestructiveHint, "%s is not destructive", name)
		}
		for _, name := range []string{"invoke_action", "invoke_action_with_input"} {
			inv := s.tools[name].Annotations
			require.NotNil(t, inv, name)
			assert.False(t, inv.ReadOnlyHint, "%s is not read-only", name)
			require.NotNil(t, inv.DestructiveHint)
			assert.True(t, *inv.DestructiveHint, "%s is destructive", name)
			require.NotNil(t, inv.OpenWorldHint)
			assert.True(t, *inv.OpenWorldHint, "%s reaches the open world", name)
		}
	})
}
