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
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// TestBundleListsEveryToolTheServerHas holds the manifest's tool list to
// handlers.All with every optional part on: the same tools in the same
// order, each described by its own Summary with the mode that lists it
// and the setting it also needs, in English in the manifest and in
// Chinese in the locale file; a tool without its Summary is refused.
func TestBundleListsEveryToolTheServerHas(t *testing.T) {
	t.Parallel()
	cfg, _, err := config.Load(func(string) string { return "" })
	require.NoError(t, err)
	cat, err := catalog.Load()
	require.NoError(t, err)
	all := handlers.All(&handlers.Deps{Catalog: cat, Config: cfg, Events: hub.New(hub.Options{})})
	m, err := bundleManifest("1.2.0", target{"darwin", "arm64"})
	require.NoError(t, err)
	zh, err := bundleChinese()
	require.NoError(t, err)
	require.Len(t, m.Tools, len(all))
	require.Len(t, zh.Tools, len(all))
	described, translated := map[string]string{}, map[string]string{}
	for i, tool := range all {
		assert.Equal(t, tool.Name, m.Tools[i].Name, "tool %d", i)
		assert.Equal(t, tool.Name, zh.Tools[i].Name, "tool %d in Chinese", i)
		assert.True(t, strings.HasPrefix(m.Tools[i].Description, tool.Summary.EN+" "), "%s: its own line first", tool.Name)
		assert.True(t, strings.HasPrefix(zh.Tools[i].Description, tool.Summary.ZH+"（"), "%s: its own Chinese line first", tool.Name)
		described[tool.Name], translated[tool.Name] = m.Tools[i].Description, zh.Tools[i].Description
	}
	for name, want := range map[string][2]string{
		"list_tasks":       {"Lists the background transfers. Write mode, with a folder for background transfers.", "列出后台传输。（write 模式，需设置后台传输文件夹）"},
		"query_action":     {"Runs a read-only action, such as get_group_list. Read and write mode.", "执行一个只读动作，例如 get_group_list。（read 和 write 模式）"},
		"list_actions":     {"Lists SnowLuma's OneBot actions, with filters and paging. Every mode.", "列出 SnowLuma 的 OneBot 动作，可筛选和分页。（所有模式）"},
		"subscribe_events": {"Follows live QQ events of one account. Read and write mode, with the WebSocket server set.", "订阅一个账号的实时 QQ 事件。（read 和 write 模式，需设置 WS 服务端）"},
	} {
		assert.Equal(t, want[0], described[name], name)
		assert.Equal(t, want[1], translated[name], name)
	}
	assert.Contains(t, m.LongDescription, "The mode and the settings decide which of the tools listed here appear")
	assert.Contains(t, zh.LongDescription, "这里列出的工具哪些会出现，取决于模式和设置")

	plain := handlers.All(&handlers.Deps{Catalog: cat, Config: cfg})
	for _, missing := range []string{"EN", "ZH"} {
		unsaid := slices.Clone(all)
		twin := *unsaid[len(unsaid)-1]
		if missing == "EN" {
			twin.Summary.EN = ""
		} else {
			twin.Summary.ZH = ""
		}
		unsaid[len(unsaid)-1] = &twin
		_, err = listTools(plain, unsaid)
		require.ErrorContains(t, err, "tool "+twin.Name+" has no line for people in English and Chinese", missing)
	}
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
		assert.Equal(t, s.Key == "token" || s.Key == "events_token", o["sensitive"] == true, "%s: only the two tokens are kept in the keychain", s.Key)
		assert.Equal(t, strings.HasSuffix(s.Var, "_ROOT") || strings.HasSuffix(s.Var, "_DIR"), o["type"] == "directory", "%s: a folder is picked as one", s.Key)
		assert.Equal(t, s.Title.EN+" · "+s.Title.ZH, o["title"], "%s: the settings are not localizable, so the title has both languages", s.Key)
		assert.Equal(t, s.Description.EN+"\n"+s.Description.ZH, o["description"], s.Key)
		for _, text := range []string{s.Title.EN, s.Title.ZH, s.Description.EN, s.Description.ZH} {
			assert.NotEmpty(t, text, s.Key)
		}
	}
	for _, mode := range []string{"docs", "read", "write"} {
		assert.Contains(t, options["mode"].(map[string]any)["description"], mode+" (")
		assert.Contains(t, options["mode"].(map[string]any)["description"], mode+"（")
	}
	var keys []string
	for _, s := range bundleSettings {
		keys = append(keys, s.Key)
	}
	assert.Equal(t, []string{"mode", "endpoint", "token", "events_url", "events_token", "upload_root", "download_dir", "task_dir", "trusted_users"}, keys)
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
			assert.Equal(t, []string{"LICENSE", "README.md", "README.zh-CN.md", "icon.png", "manifest.json",
				"mcpb-resources/zh-CN.json", "mcpb-resources/zh-Hans.json", "server/" + tt.exe()}, files)
			assertLocalized(t, dir)
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
// TestTheDocsDescribeTheBundle holds what the pages about the bundle say
// of it to the code; the table of its settings is generated (cmd/docgen,
// from config.Dialog).
func TestTheDocsDescribeTheBundle(t *testing.T) {
	t.Parallel()
	var pins struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "e2e", "clients", "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &pins))
	for _, tt := range []struct{ page, fact string }{
		{"docs/hosts/claude-desktop.md", "Claude Desktop " + strings.TrimPrefix(bundleHostVersion, ">=") + " or later"},
		{"docs/hosts/claude-desktop.md", "lists every tool"},
		{"docs/hosts/claude-desktop.md", "snowluma-mcp_<version>_<os>_<arch>.mcpb"},
		{"docs/maintainers.md", "`@anthropic-ai/mcpb` " + pins.Dependencies["@anthropic-ai/mcpb"] + ", pinned in `e2e/clients`"},
		{"docs/maintainers.md", "manifest version " + bundleManifestVersion},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(tt.page)))
		require.NoError(t, err)
		assert.Contains(t, strings.Join(strings.Fields(string(b)), " "), tt.fact, tt.page)
	}
}

// bundleFor is t's bundle manifest at version 1.2.0.
func bundleFor(tb testing.TB, t target) mcpbManifest {
	tb.Helper()
	m, err := bundleManifest("1.2.0", t)
	require.NoError(tb, err)
	return m
}

// assertLocalized checks an unpacked bundle's localization: the manifest
// names where the locale files are and which locale it is itself written
// in, and the file of each Chinese locale, found where a host looks for it
// (the resources pattern with the locale put in), overrides the
// description, the long description and every tool's description, for the
// tools of the manifest in its order, in Chinese.
func assertLocalized(t *testing.T, dir string) {
	t.Helper()
	var m struct {
		Description     string `json:"description"`
		LongDescription string `json:"long_description"`
		Localization    struct {
			Resources     string `json:"resources"`
			DefaultLocale string `json:"default_locale"`
		} `json:"localization"`
		Tools []mcpbTool `json:"tools"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, "en-US", m.Localization.DefaultLocale)
	hasHan := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	}
	assert.False(t, hasHan(m.Description), "the manifest itself is the English locale")
	for _, locale := range []string{"zh-CN", "zh-Hans"} {
		file := strings.ReplaceAll(m.Localization.Resources, "${locale}", locale)
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		require.NoError(t, err, locale)
		var r struct {
			Description     string     `json:"description"`
			LongDescription string     `json:"long_description"`
			Tools           []mcpbTool `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(b, &r), locale)
		assert.True(t, hasHan(r.Description) && hasHan(r.LongDescription), locale)
		require.Len(t, r.Tools, len(m.Tools), locale)
		for i := range m.Tools {
			assert.Equal(t, m.Tools[i].Name, r.Tools[i].Name, locale)
			assert.True(t, hasHan(r.Tools[i].Description), "%s: %s", locale, r.Tools[i].Name)
		}
	}
}
