package handlers

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

var update = flag.Bool("update", false, "rewrite the tool snapshots and testdata/tools.json")

// variants are the tool lists a client can see: one per mode, write mode's
// extra tools for clients of the tasks extension ("tasks", pinned on their
// own: the other lists never show them), and the lists of a server with
// SNOWLUMA_MCP_EVENTS_URL ("-events").
var variants = []struct {
	name   string
	mode   config.Mode
	events bool
	tasks  bool
}{
	{"docs", config.ModeDocs, false, false}, {"read", config.ModeRead, false, false}, {"write", config.ModeWrite, false, false},
	{"tasks", config.ModeWrite, false, true},
	{"read-events", config.ModeRead, true, false}, {"write-events", config.ModeWrite, true, false},
}

// TestToolDefinitions pins each tool's definition (name, description,
// annotations, input schema and result schema) once, in
// testdata/toolsnaps/NAME.json, the output schema around every tool's
// result once, in testdata/toolsnaps/_output_wrapper.json, and which
// tools each variant lists, in order, in testdata/tools.json (the e2e tests
// hold the binary's tools/list to the same file). A tool shows the same
// definition in every list that has it. It also checks catalogue-wide
// invariants.
func TestToolDefinitions(t *testing.T) {
	lists := map[string][]string{}
	snaps := map[string][]byte{}
	for _, v := range variants {
		d := deps(t, v.mode)
		if v.events {
			d.Events = hub.New(hub.Options{})
		}
		shown := func(tl *pipeline.Tool) bool { return v.mode.Allows(tl.MinMode) && !tl.Tasks }
		if v.tasks {
			shown = func(tl *pipeline.Tool) bool { return tl.Tasks }
		}
		names := []string{}
		for _, tl := range All(d) {
			if !shown(tl) {
				continue
			}
			def := tl.Def()
			checkInvariants(t, def)
			got, wrapper := ownParts(t, def)
			if prev, ok := snaps[wrapperName]; ok {
				assert.JSONEq(t, string(prev), string(wrapper), "%s's output schema around its result differs from the other tools'", def.Name)
			}
			snaps[wrapperName] = wrapper
			if prev, ok := snaps[def.Name]; ok {
				assert.Equal(t, string(prev), string(got), "%s is defined differently in the %s list", def.Name, v.name)
			}
			snaps[def.Name] = got
			names = append(names, def.Name)
		}
		lists[v.name] = names
	}

	listPath := filepath.Join("testdata", "tools.json")
	if *update {
		require.NoError(t, os.RemoveAll(filepath.Join("testdata", "toolsnaps")))
		require.NoError(t, os.MkdirAll(filepath.Join("testdata", "toolsnaps"), 0o755))
		for name, b := range snaps {
			require.NoError(t, os.WriteFile(snapPath(name), b, 0o644))
		}
		b, err := json.MarshalIndent(lists, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(listPath, append(b, '\n'), 0o644))
	}

	want, err := os.ReadFile(listPath)
	require.NoError(t, err, "run go test ./handlers -update")
	var wantLists map[string][]string
	require.NoError(t, json.Unmarshal(want, &wantLists))
	assert.Equal(t, wantLists, lists, "the tools each variant lists")
	for name, got := range snaps {
		want, err := os.ReadFile(snapPath(name))
		if assert.NoError(t, err, "no snapshot of %s: run go test ./handlers -update", name) {
			assert.JSONEq(t, string(want), string(got), name)
		}
	}
	files, err := filepath.Glob(snapPath("*"))
	require.NoError(t, err)
	assert.Len(t, files, len(snaps), "a snapshot of a tool that no list shows")
}

func snapPath(name string) string { return filepath.Join("testdata", "toolsnaps", name+".json") }

// wrapperName is the snapshot of what every tool's output schema holds
// around the tool's own result schema (the diagnostics, and how the two
// are put together): it is the same for every tool, so it is pinned once.
const wrapperName = "_output_wrapper"

// resultPlaceholder stands where each tool's own result schema goes in
// the wrapper's snapshot.
const resultPlaceholder = "the tool's result schema (see its snapshot)"

// ownParts splits a tool's definition into what the tool owns (name,
// description, annotations, _meta, input schema, and its result schema,
// under "result") and the output schema around that result, which every
// tool shares.
func ownParts(t *testing.T, def *mcp.Tool) (own, wrapper []byte) {
	t.Helper()
	raw, err := json.Marshal(def)
	require.NoError(t, err)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	out, ok := fields["outputSchema"].(map[string]any)
	require.True(t, ok, "%s has an output schema", def.Name)
	props, ok := out["properties"].(map[string]any)
	require.True(t, ok, "%s's output schema has properties", def.Name)
	fields["result"] = props["result"]
	delete(fields, "outputSchema")
	props["result"] = resultPlaceholder
	own, err = json.MarshalIndent(fields, "", "  ")
	require.NoError(t, err)
	wrapper, err = json.MarshalIndent(out, "", "  ")
	require.NoError(t, err)
	return append(own, '\n'), append(wrapper, '\n')
}

// destructive are the tools that may change the account or what others
// see: those that run any catalog action. unsubscribe_events, which only
// releases a buffer in this process, is not.
var destructive = map[string]bool{"invoke_action": true, "invoke_action_with_input": true, "invoke_action_background": true}

// checkInvariants holds every tool to what MCP clients rely on: annotations
// and an output schema, an object input schema without top-level anyOf that
// refuses unknown arguments, and schemas that compile.
func checkInvariants(t *testing.T, d *mcp.Tool) {
	t.Helper()
	assert.NotNil(t, d.Annotations, "%s declares its read-only-ness", d.Name)
	assert.NotNil(t, d.OutputSchema, d.Name)
	in, _ := json.Marshal(d.InputSchema)
	var top map[string]any
	require.NoError(t, json.Unmarshal(in, &top))
	assert.Equal(t, "object", top["type"])
	assert.NotContains(t, top, "anyOf", "no top-level anyOf in %s", d.Name)
	// Unknown arguments are refused, with one documented exception: the
	// host-added control keys of pipeline.HostKeys (Gemini CLI's
	// wait_for_previous), which the arguments stage drops before
	// validating. So no tool may declare a property of that name: the
	// drop would take a real argument away.
	assert.Equal(t, false, top["additionalProperties"], "%s refuses unknown arguments (except pipeline.HostKeys, dropped before validation)", d.Name)
	props, _ := top["properties"].(map[string]any)
	for _, k := range pipeline.HostKeys {
		assert.NotContains(t, props, k.Name, "%s declares %s, a key %s %s adds and the arguments stage drops", d.Name, k.Name, k.Host, k.Version)
	}
	if !d.Annotations.ReadOnlyHint {
		// Codex counts a missing destructiveHint as true, and codex exec
		// then refuses the tool: a tool that is not read-only says which.
		require.NotNil(t, d.Annotations.DestructiveHint, "%s says whether it is destructive", d.Name)
		assert.Equal(t, destructive[d.Name], *d.Annotations.DestructiveHint, "%s's destructiveHint", d.Name)
	}
	out, _ := json.Marshal(d.OutputSchema)
	_, err := schema.Compile(out)
	require.NoError(t, err, d.Name)
	_, err = schema.Compile(in)
	require.NoError(t, err, d.Name)
}
