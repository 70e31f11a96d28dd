package handlers

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/hub"
	"github.com/snowluma/snowluma-mcp/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestToolDefinitions pins every tool's definition (name, description,
// schemas, annotations) as each mode shows it, and checks catalogue-wide
// invariants.
func TestToolDefinitions(t *testing.T) {
	t.Parallel()
	variants := []struct {
		mode   config.Mode
		events bool
	}{
		{config.ModeDocs, false}, {config.ModeRead, false}, {config.ModeWrite, false},
		{config.ModeRead, true}, {config.ModeWrite, true},
	}
	for _, v := range variants {
		mode, name := v.mode, string(v.mode)
		if v.events {
			name += "-events"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var defs []any
			d := deps(t, mode)
			if v.events {
				d.Events = hub.New(hub.Options{})
			}
			for _, tl := range All(d) {
				if !mode.Allows(tl.Mode) {
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
			path := filepath.Join("testdata", "tools-"+name+".json")
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
