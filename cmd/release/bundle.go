package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// An MCP Bundle (.mcpb, the format of the @anthropic-ai/mcpb npm package)
// is a zip with manifest.json at its root: Claude Desktop installs it from
// one file, asks the user for the settings its user_config declares, keeps
// those marked sensitive in the operating system's keychain, and starts
// the server with mcp_config.command and mcp_config.env, in which it
// replaces ${__dirname} with where it unpacked the bundle and
// ${user_config.KEY} with the user's answer. There is one bundle per
// target, each holding that target's binary: a host installs the one for
// its own platform, and a bundle of all six binaries would be six times
// the download.

// bundleManifestVersion is the manifest version the bundles follow: 0.3,
// the current one of the manifest specification (MANIFEST.md of
// modelcontextprotocol/mcpb), the first with localization, which carries
// the Chinese description and tool list (bundleLocales). The pinned mcpb
// CLI (@anthropic-ai/mcpb 2.1.2) validates it; its schema file still calls
// it work in progress, and `mcpb init` still writes 0.2, which has every
// other field used here.
const bundleManifestVersion = "0.3"

// bundleHostVersion is the Claude Desktop versions that run binary
// bundles: the constraint the manifest specification (MANIFEST.md of
// @anthropic-ai/mcpb) gives for its binary example.
const bundleHostVersion = ">=0.10.0"

// bundleCommand starts the bundled binary, on Windows too, where the file
// is snowluma-mcp.exe: the bundle specification says hosts append .exe to
// a binary's command there, and where one does not, node's spawn (libuv)
// tries the name with .com and then .exe appended when it finds no file
// of that exact name. Naming the .exe instead would break under a host
// that appends it.
const bundleCommand = "${__dirname}/server/snowluma-mcp"

// The localized parts of a bundle: the specification lets a file per
// locale, named by localization.resources, override the manifest's display
// name, description, long description, author name, keywords and tool
// descriptions. The Chinese file overrides the description, the long
// description and the tool list; the rest reads the same in both
// languages. A setting's title and description are not localizable, so
// bundleSettings writes both languages into them. The manifest itself is
// the English (the default locale). The Chinese file is written under
// both names a host may ask for: zh-CN, the region tag operating systems
// report, and zh-Hans, the script tag the specification uses as its
// example; which one a host looks for, and whether it falls back from one
// to the other, the specification leaves to the host.
const (
	bundleResources     = "mcpb-resources/${locale}.json"
	bundleDefaultLocale = "en-US"
)

var bundleLocales = []string{"zh-CN", "zh-Hans"}

// bundleSettings are the settings the host asks for: config.Dialog, whose
// doc comment says why each is there and optional.
var bundleSettings = config.Dialog()

// A bundleTool is a tool as the host lists it before the server runs: the
// tool's own line for people (its Spec.Summary) and when it appears.
type bundleTool struct {
	Name    string
	Summary lang.Text
	// Mode is the least mode that lists the tool; When is the further
	// condition, if any.
	Mode string
	When lang.Text
}

// The further conditions a tool can have beyond its mode.
var (
	whenTasks  = lang.Text{EN: "with a folder for background transfers", ZH: "需设置后台传输文件夹"}
	whenEvents = lang.Text{EN: "with the WebSocket server set", ZH: "需设置 WS 服务端"}
)

// bundleModes says which modes list a tool of each least mode.
var bundleModes = map[string]lang.Text{
	"docs":  {EN: "Every mode", ZH: "所有模式"},
	"read":  {EN: "Read and write mode", ZH: "read 和 write 模式"},
	"write": {EN: "Write mode", ZH: "write 模式"},
}

// bundleTools are every tool the server can list, in its listing order:
// handlers.All with every optional part on. A tool of the tasks extension
// also needs the task folder; one that only a server with an events URL
// has needs that URL. Each tool's line is its own declaration's Summary,
// so a new tool is listed without a change here; one without a Summary
// in both languages is an error.
func bundleTools() ([]bundleTool, error) {
	cfg, _, err := config.Load(func(string) string { return "" })
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	return listTools(handlers.All(&handlers.Deps{Catalog: cat, Config: cfg}),
		handlers.All(&handlers.Deps{Catalog: cat, Config: cfg, Events: hub.New(hub.Options{})}))
}

// listTools lists every tool of all; a tool that plain (the same server
// without an events URL) lacks needs the events URL.
func listTools(plain, all []*pipeline.Tool) ([]bundleTool, error) {
	without := map[string]bool{}
	for _, tl := range plain {
		without[tl.Name] = true
	}
	var out []bundleTool
	for _, tl := range all {
		if tl.Summary.EN == "" || tl.Summary.ZH == "" {
			return nil, fmt.Errorf("tool %s has no line for people in English and Chinese: set Summary in its pipeline.Spec", tl.Name)
		}
		if _, ok := bundleModes[string(tl.MinMode)]; !ok {
			return nil, fmt.Errorf("tool %s needs mode %q, which the bundle cannot describe", tl.Name, tl.MinMode)
		}
		bt := bundleTool{Name: tl.Name, Summary: tl.Summary, Mode: string(tl.MinMode)}
		switch {
		case tl.Tasks:
			bt.When = whenTasks
		case !without[tl.Name]:
			bt.When = whenEvents
		}
		out = append(out, bt)
	}
	return out, nil
}

// description is the tool's line in the host's list, in English: what it
// does and when it appears.
func (t bundleTool) description() string {
	when := bundleModes[t.Mode].EN
	if t.When.EN != "" {
		when += ", " + t.When.EN
	}
	return t.Summary.EN + " " + when + "."
}

// descriptionZH is the same line in Chinese.
func (t bundleTool) descriptionZH() string {
	when := bundleModes[t.Mode].ZH
	if t.When.ZH != "" {
		when += "，" + t.When.ZH
	}
	return t.Summary.ZH + "（" + when + "）"
}

// mcpbManifest is manifest.json; its field order is the file's.
type mcpbManifest struct {
	ManifestVersion string            `json:"manifest_version"`
	Name            string            `json:"name"`
	DisplayName     string            `json:"display_name"`
	Version         string            `json:"version"`
	Description     string            `json:"description"`
	LongDescription string            `json:"long_description"`
	Author          mcpbAuthor        `json:"author"`
	Repository      repository        `json:"repository"`
	Homepage        string            `json:"homepage"`
	Documentation   string            `json:"documentation"`
	Support         string            `json:"support"`
	Icon            string            `json:"icon"`
	Localization    mcpbLocalization  `json:"localization"`
	Server          mcpbServer        `json:"server"`
	Tools           []mcpbTool        `json:"tools"`
	Keywords        []string          `json:"keywords"`
	License         string            `json:"license"`
	Compatibility   mcpbCompatibility `json:"compatibility"`
	// UserConfig keeps bundleSettings' order: a map would sort it.
	UserConfig orderedSettings `json:"user_config"`
}

type mcpbAuthor struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type mcpbLocalization struct {
	Resources     string `json:"resources"`
	DefaultLocale string `json:"default_locale"`
}

// mcpbResources is one locale's file: the manifest's localizable fields,
// overridden.
type mcpbResources struct {
	Description     string     `json:"description"`
	LongDescription string     `json:"long_description"`
	Tools           []mcpbTool `json:"tools"`
}

type mcpbServer struct {
	Type       string        `json:"type"`
	EntryPoint string        `json:"entry_point"`
	MCPConfig  mcpbMCPConfig `json:"mcp_config"`
}

type mcpbMCPConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

type mcpbTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type mcpbCompatibility struct {
	ClaudeDesktop string   `json:"claude_desktop"`
	Platforms     []string `json:"platforms"`
}

type mcpbOption struct {
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Default     string `json:"default"`
	Sensitive   bool   `json:"sensitive,omitempty"`
}

// orderedSettings encodes bundleSettings as a JSON object in their order.
type orderedSettings []config.DialogSetting

func (o orderedSettings) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteString("{")
	for i, s := range o {
		if i > 0 {
			b.WriteString(",")
		}
		b.Write(jsonFile(s.Key))
		b.WriteString(":")
		b.Write(jsonFile(mcpbOption{Type: s.Type, Title: s.HostTitle(), Description: s.HostDescription(), Default: "", Sensitive: s.Sensitive}))
	}
	b.WriteString("}")
	return []byte(b.String()), nil
}

// bundleText is the bundle's description and long description, in both
// languages.
var bundleText = struct{ Description, LongDescription lang.Text }{
	Description: lang.Text{
		EN: "Lets the agent work with your SnowLuma QQ bot (OneBot v11): look up its actions, read, and send.",
		ZH: "让智能体使用你的 SnowLuma QQ 机器人（OneBot v11）：查阅动作、读取和发送。",
	},
	LongDescription: lang.Text{
		EN: "snowluma-mcp connects Claude to [SnowLuma](https://github.com/SnowLuma/SnowLuma). " +
			"With no settings it runs in docs mode and only looks up SnowLuma's OneBot actions, offline. " +
			"Give it the address and Token of an HTTP API node in SnowLuma's WebUI to run read-only actions (read mode), " +
			"or choose write mode to let it send messages and transfer files, as your own QQ account. " +
			"Every call is checked against the mode and the action's parameters. " +
			"The mode and the settings decide which of the tools listed here appear: each says when.",
		ZH: "snowluma-mcp 把 Claude 连接到 [SnowLuma](https://github.com/SnowLuma/SnowLuma)。" +
			"不做任何设置时它以 docs 模式运行，只离线查阅 SnowLuma 的 OneBot 动作。" +
			"填上 SnowLuma WebUI 里 HTTP API 节点的地址和 Token，它就能执行只读动作（read 模式）；" +
			"选择 write 模式，它还能发消息、传文件，用的是你自己的 QQ 账号。" +
			"每次调用都会按模式和动作的参数检查。这里列出的工具哪些会出现，取决于模式和设置：每个工具都写明了条件。",
	},
}

// bundleManifest is t's manifest.json at version.
func bundleManifest(version string, t target) (mcpbManifest, error) {
	env := map[string]string{}
	for _, s := range bundleSettings {
		env[s.Var] = "${user_config." + s.Key + "}"
	}
	bts, err := bundleTools()
	if err != nil {
		return mcpbManifest{}, err
	}
	var tools []mcpbTool
	for _, bt := range bts {
		tools = append(tools, mcpbTool{bt.Name, bt.description()})
	}
	return mcpbManifest{
		ManifestVersion: bundleManifestVersion,
		Name:            npmMain,
		DisplayName:     "SnowLuma",
		Version:         version,
		Description:     bundleText.Description.EN,
		LongDescription: bundleText.LongDescription.EN,
		Author:          mcpbAuthor{Name: "snowluma-mcp contributors", URL: repoURL},
		Repository:      repository{Type: "git", URL: repoURL + ".git"},
		Homepage:        repoURL,
		Documentation:   repoURL + "#readme",
		Support:         repoURL + "/issues",
		Icon:            "icon.png",
		Localization:    mcpbLocalization{Resources: bundleResources, DefaultLocale: bundleDefaultLocale},
		Server: mcpbServer{Type: "binary", EntryPoint: "server/" + t.exe(),
			MCPConfig: mcpbMCPConfig{Command: bundleCommand, Args: []string{}, Env: env}},
		Tools:         tools,
		Keywords:      []string{"snowluma", "onebot", "qq", "mcp"},
		License:       "MIT",
		Compatibility: mcpbCompatibility{ClaudeDesktop: bundleHostVersion, Platforms: []string{t.npmOS()}},
		UserConfig:    bundleSettings,
	}, nil
}

// bundleChinese is the Chinese locale's file.
func bundleChinese() (mcpbResources, error) {
	bts, err := bundleTools()
	if err != nil {
		return mcpbResources{}, err
	}
	r := mcpbResources{Description: bundleText.Description.ZH, LongDescription: bundleText.LongDescription.ZH}
	for _, bt := range bts {
		r.Tools = append(r.Tools, mcpbTool{bt.Name, bt.descriptionZH()})
	}
	return r, nil
}

// bundle is t's .mcpb: the manifest, its Chinese locale's file under each
// of bundleLocales, the icon and the binary (executable), with docs (the
// READMEs and the licence), at the zip's root and dated like the archives.
func bundle(version string, t target, bin, png []byte, docs []entry, date time.Time) ([]byte, error) {
	m, err := bundleManifest(version, t)
	if err != nil {
		return nil, err
	}
	zh, err := bundleChinese()
	if err != nil {
		return nil, err
	}
	entries := []entry{{"manifest.json", 0o644, jsonFile(m)}}
	for _, locale := range bundleLocales {
		entries = append(entries, entry{strings.ReplaceAll(bundleResources, "${locale}", locale), 0o644, jsonFile(zh)})
	}
	entries = append(entries, entry{"icon.png", 0o644, png}, entry{"server/" + t.exe(), 0o755, bin})
	return zipArchive("", append(entries, docs...), date)
}
