package handlers

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestToolDefinitions pins every tool's definition (name, description,
// schemas, annotations) as each mode shows it, and checks catalogue-wide
// invariants.
func TestToolDefinitions(t *testing.T) {
	t.Parallel()
	// "tasks" is write mode's extra tools for clients of the tasks
	// extension, pinned on their own: the other lists never show them.
	// "-events" lists are those of a server with SNOWLUMA_MCP_EVENTS_URL.
	variants := []struct {
		name   string
		mode   config.Mode
		events bool
		tasks  bool
	}{
		{"docs", config.ModeDocs, false, false}, {"read", config.ModeRead, false, false}, {"write", config.ModeWrite, false, false},
		{"tasks", config.ModeWrite, false, true},
		{"read-events", config.ModeRead, true, false}, {"write-events", config.ModeWrite, true, false},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			var defs []any
			d := deps(t, v.mode)
			if v.events {
				d.Events = hub.New(hub.Options{})
			}
			shown := func(tl *pipeline.Tool) bool { return v.mode.Allows(tl.Mode) && !tl.Tasks }
			if v.tasks {
				shown = func(tl *pipeline.Tool) bool { return tl.Tasks }
			}
			for _, tl := range All(d) {
				if !shown(tl) {
					continue
				}
				d := tl.Def()
				assert.NotNil(t, d.Annotations, "%s declares its read-only-ness", d.Name)
				assert.NotNil(t, d.OutputSchema, d.Name)
				in, _ := json.Marshal(d.InputSchema)
				var top map[string]any
				require.NoError(t, json.Unmarshal(in, &top))
				assert.Equal(t, "object", top["type"])
				assert.NotContains(t, top, "anyOf", "no top-level anyOf in %s", d.Name)
				assert.Equal(t, false, top["additionalProperties"], "%s refuses unknown arguments", d.Name)
				out, _ := json.Marshal(d.OutputSchema)
				_, err := schema.Compile(out)
				require.NoError(t, err, d.Name)
				_, err = schema.Compile(in)
				require.NoError(t, err, d.Name)
				defs = append(defs, d)
			}
			got, err := json.MarshalIndent(defs, "", "  ")
			require.NoError(t, err)
			path := filepath.Join("testdata", "tools-"+v.name+".json")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./handlers -update")
			assert.JSONEq(t, string(want), string(got))
		})
	}
}
