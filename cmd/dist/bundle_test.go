package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// TestBundleListsEveryToolTheServerHas holds the manifest's tool list to
// handlers.All with every optional part on: the same tools in the same
// order, each described with the mode that lists it and the setting it
// also needs, and a bundle of a tool without its line is refused.
func TestBundleListsEveryToolTheServerHas(t *testing.T) {
	cfg, _, err := config.Load(func(string) string { return "" })
	require.NoError(t, err)
	cat, err := catalog.Load()
	require.NoError(t, err)
	all := handlers.All(&handlers.Deps{Catalog: cat, Config: cfg, Events: hub.New(hub.Options{})})
	m, err := bundleManifest("1.2.0", target{"darwin", "arm64"})
	require.NoError(t, err)
	require.Len(t, m.Tools, len(all))
	described := map[string]string{}
	for i, tool := range all {
		assert.Equal(t, tool.Name, m.Tools[i].Name, "tool %d", i)
		described[tool.Name] = m.Tools[i].Description
	}
	for name, want := range map[string]string{
		"list_tasks":       "Lists the background transfers. Write mode, with a folder for background transfers.",
		"query_action":     "Runs a read-only action, such as get_group_list. Read and write mode.",
		"list_actions":     "Lists SnowLuma's OneBot actions, with filters and paging. Every mode.",
		"subscribe_events": "Follows live QQ events of one account. Read and write mode, with the WebSocket server set.",
	} {
		assert.Equal(t, want, described[name], name)
	}
	assert.Contains(t, m.LongDescription, "The mode and the settings decide which of the tools listed here appear")

	line := bundleWhat["list_tasks"]
	delete(bundleWhat, "list_tasks")
	defer func() { bundleWhat["list_tasks"] = line }()
	_, err = bundle("1.2.0", target{"darwin", "arm64"}, nil, nil, nil, time.Unix(0, 0))
	require.ErrorContains(t, err, "tool list_tasks has no line for the host's list")
}

// TestBundleSettingsAreVariablesTheServerReads: every setting the host asks
// for fills a variable the server reads, none twice; only the token is
// sensitive (the keychain), the three folders are directory pickers, and
// none is required, each defaulting to "".
func TestBundleSettingsAreVariablesTheServerReads(t *testing.T) {
	t.Parallel()
	read := map[string]bool{}
	_, _, err := config.Load(func(name string) string { read[name] = true; return "" })
	require.NoError(t, err)

	var m map[string]any
	require.NoError(t, json.Unmarshal(jsonFile(bundleFor(t, target{"windows", "amd64"})), &m))
	env := m["server"].(map[string]any)["mcp_config"].(map[string]any)["env"].(map[string]any)
	options := m["user_config"].(map[string]any)
	require.Len(t, env, len(bundleSettings))
	require.Len(t, options, len(bundleSettings))
	for _, s := range bundleSettings {
		assert.True(t, read[s.Var], "%s is a variable the server reads", s.Var)
		assert.Equal(t, "${user_config."+s.Key+"}", env[s.Var])
		o := options[s.Key].(map[string]any)
		assert.Equal(t, "", o["default"], "%s: a blank setting is passed as empty, not as its placeholder", s.Key)
		assert.Equal(t, false, o["required"], s.Key)
		assert.Equal(t, s.Key == "token", o["sensitive"] == true, "%s: only the token is kept in the keychain", s.Key)
		assert.Equal(t, strings.HasSuffix(s.Var, "_ROOT") || strings.HasSuffix(s.Var, "_DIR"), o["type"] == "directory", "%s: a folder is picked as one", s.Key)
		assert.NotEmpty(t, o["title"])
		assert.NotEmpty(t, o["description"])
	}
	for _, mode := range []string{"docs", "read", "write"} {
		assert.Contains(t, options["mode"].(map[string]any)["description"], mode+" (")
	}
	var keys []string
	for _, s := range bundleSettings {
		keys = append(keys, s.Key)
	}
	assert.Equal(t, []string{"mode", "endpoint", "token", "events_url", "upload_root", "download_dir", "task_dir", "trusted_users"}, keys)
	assert.Contains(t, string(jsonFile(bundleFor(t, target{"windows", "amd64"}))), `"user_config": {
    "mode": {`, "the settings keep their order in the file")
}

func TestBundleRunsItsOwnPlatformsBinary(t *testing.T) {
	t.Parallel()
	for _, tt := range targets {
		t.Run(tt.String(), func(t *testing.T) {
			t.Parallel()
			m := bundleFor(t, tt)
			assert.Equal(t, "1.2.0", m.Version)
			assert.Equal(t, "binary", m.Server.Type)
			assert.Equal(t, "server/"+tt.exe(), m.Server.EntryPoint)
			assert.Equal(t, "${__dirname}/server/snowluma-mcp", m.Server.MCPConfig.Command, "no .exe: a host may append it")
			assert.Equal(t, []string{tt.npmOS()}, m.Compatibility.Platforms)
			assert.Equal(t, ">=0.10.0", m.Compatibility.ClaudeDesktop)
			assert.Equal(t, "snowluma-mcp_1.2.0_"+tt.GOOS+"_"+tt.GOARCH+".mcpb", tt.bundle("1.2.0"))
		})
	}
}

// mcpb is the pinned @anthropic-ai/mcpb CLI that make build installs in
// e2e/clients (the lockfile there pins it).
func mcpb(t *testing.T) string {
	t.Helper()
	bin := filepath.Join("..", "..", "e2e", "clients", "node_modules", ".bin", "mcpb")
	if runtime.GOOS == "windows" {
		bin += ".cmd"
	}
	abs, err := filepath.Abs(bin)
	require.NoError(t, err)
	_, err = os.Stat(abs)
	require.NoError(t, err, "the mcpb CLI is missing: run make build (npm ci in e2e/clients), which needs node >= 20.19")
	return abs
}

// validateBundle unpacks a bundle with the mcpb CLI, as a host does, and
// runs mcpb validate on what came out (the manifest against the schema of
// its version, and the icon). It returns the unpacked directory.
func validateBundle(t *testing.T, file string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "unpacked")
	out, err := exec.Command(mcpb(t), "unpack", file, dir).CombinedOutput()
	require.NoError(t, err, "mcpb unpack: %s", out)
	out, err = exec.Command(mcpb(t), "validate", dir).CombinedOutput()
	require.NoError(t, err, "mcpb validate: %s", out)
	assert.Contains(t, string(out), "Manifest schema validation passes!")
	assert.NotContains(t, string(out), "ERROR")
	return dir
}

var (
	iconOnce sync.Once
	iconPNG  []byte
)

// TestEveryBundleValidates runs mcpb validate on the bundle of every
// target. The binaries are stand-ins (building all six costs minutes): the
// validator reads the manifest and the icon, and the host's real bundle is
// checked whole by TestReleaseHoldsWhatItPromises and e2e/bundle_test.go.
func TestEveryBundleValidates(t *testing.T) {
	t.Parallel()
	iconOnce.Do(func() { iconPNG = icon() })
	for _, tt := range targets {
		t.Run(tt.String(), func(t *testing.T) {
			t.Parallel()
			docs := []entry{{"README.md", 0o644, []byte("# readme\n")}, {"README.zh-CN.md", 0o644, []byte("# 说明\n")}, {"LICENSE", 0o644, []byte("MIT\n")}}
			data, err := bundle("1.2.0", tt, []byte("stand-in for the "+tt.String()+" binary"), iconPNG, docs,
				time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC))
			require.NoError(t, err)
			file := filepath.Join(t.TempDir(), tt.bundle("1.2.0"))
			require.NoError(t, os.WriteFile(file, data, 0o644))
			dir := validateBundle(t, file)
			var files []string
			require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(dir, path)
					files = append(files, filepath.ToSlash(rel))
				}
				return err
			}))
			slices.Sort(files)
			assert.Equal(t, []string{"LICENSE", "README.md", "README.zh-CN.md", "icon.png", "manifest.json", "server/" + tt.exe()}, files)
			if runtime.GOOS != "windows" {
				info, err := os.Stat(filepath.Join(dir, "server", tt.exe()))
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o755), info.Mode().Perm(), "the host's unpacker keeps the executable bit")
			}
		})
	}
}

func TestIconIsASquarePNGTheValidatorAccepts(t *testing.T) {
	t.Parallel()
	iconOnce.Do(func() { iconPNG = icon() })
	cfg, err := png.DecodeConfig(bytes.NewReader(iconPNG))
	require.NoError(t, err)
	assert.Equal(t, [2]int{512, 512}, [2]int{cfg.Width, cfg.Height}, "the size Claude Desktop recommends")
	assert.Equal(t, iconPNG, icon(), "drawn the same every time")
}

// TestReadmeDescribesTheBundle holds the README's Install section to the
// bundle: its settings table, and the Chinese README's, names every
// setting, in the host's order, with the variable it fills, and the facts
// it states are the manifest's.
func TestReadmeDescribesTheBundle(t *testing.T) {
	t.Parallel()
	var want [][2]string
	for _, s := range bundleSettings {
		want = append(want, [2]string{s.Title, s.Var})
	}
	// The Chinese README keeps the titles as the host shows them.
	var readme string
	for _, tt := range []struct{ file, header string }{
		{"README.md", "| setting | fills | |"},
		{"README.zh-CN.md", "| 设置项（对话框中的名称） | 对应变量 | |"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", tt.file))
		require.NoError(t, err)
		text := string(b)
		if tt.file == "README.md" {
			readme = text
		}
		start := strings.Index(text, tt.header)
		require.NotEqual(t, -1, start, "the Install section of %s has the bundle's settings table", tt.file)
		var rows [][2]string
		for _, line := range strings.Split(text[start:], "\n")[2:] {
			if !strings.HasPrefix(line, "|") {
				break
			}
			cells := strings.Split(strings.Trim(line, "|"), "|")
			require.Len(t, cells, 3, line)
			rows = append(rows, [2]string{strings.TrimSpace(cells[0]), strings.Trim(strings.TrimSpace(cells[1]), "`")})
		}
		assert.Equal(t, want, rows, "%s: every setting, titled as the host shows it, with its variable", tt.file)
	}

	var pins struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "e2e", "clients", "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &pins))
	for _, fact := range []string{
		"Claude Desktop " + strings.TrimPrefix(bundleHostVersion, ">=") + " or later",
		"manifest version " + bundleManifestVersion,
		"lists every tool",
		"`@anthropic-ai/mcpb` " + pins.Dependencies["@anthropic-ai/mcpb"] + ", pinned in `e2e/clients`",
		"snowluma-mcp_<version>_<os>_<arch>.mcpb",
	} {
		assert.Contains(t, strings.Join(strings.Fields(readme), " "), fact)
	}
}

// bundleFor is t's bundle manifest at version 1.2.0.
func bundleFor(tb testing.TB, t target) mcpbManifest {
	tb.Helper()
	m, err := bundleManifest("1.2.0", t)
	require.NoError(tb, err)
	return m
}
