package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
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

// bundleManifestVersion is the manifest version the bundles follow: the
// one `mcpb init` writes (DEFAULT_MANIFEST_VERSION in @anthropic-ai/mcpb
// 2.1.2), which has every field used here; 0.3 adds only localization and
// icon sizes, and is marked work in progress in that package.
const bundleManifestVersion = "0.2"

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

// A setting is one user_config entry and the variable it fills.
type setting struct {
	Key, Var, Type, Title, Description string
	Sensitive                          bool
}

// bundleSettings are what the host asks for, in the order it shows them.
// None is required (docs mode needs nothing), so each has "default": "":
// the host then passes an empty value for a setting left blank, which the
// server treats as unset, where it would otherwise pass the literal
// ${user_config.KEY} placeholder.
var bundleSettings = []setting{
	{"mode", "SNOWLUMA_MCP_MODE", "string", "Mode",
		"What the agent may do: docs (look up SnowLuma's actions only, no connection), read (also run read-only actions) " +
			"or write (also send messages and run any action). Leave it empty for read when the HTTP server below is set, else docs.", false},
	{"endpoint", "SNOWLUMA_MCP_ENDPOINT", "string", "SnowLuma HTTP server",
		"The address of the HTTP server adapter in SnowLuma's OneBot settings, such as http://127.0.0.1:3000/. " +
			"Leave it empty for docs mode.", false},
	{"token", "SNOWLUMA_MCP_TOKEN", "string", "Access token",
		"The accessToken of SnowLuma's HTTP server adapter, copied exactly; it is kept in the system keychain. " +
			"Leave it empty if the adapter has none.", true},
	{"events_url", "SNOWLUMA_MCP_EVENTS_URL", "string", "SnowLuma WebSocket server (live events)",
		"The address of the WebSocket server adapter in SnowLuma's OneBot settings, such as ws://127.0.0.1:3001/, " +
			"with the same accessToken. Turns on the live event tools in read and write mode. Leave it empty for none.", false},
	{"upload_root", "SNOWLUMA_MCP_UPLOAD_ROOT", "directory", "Folder for uploads",
		"In write mode the agent may upload files from inside this folder only. Leave it empty to turn automatic upload off.", false},
	{"download_dir", "SNOWLUMA_MCP_DOWNLOAD_DIR", "directory", "Folder for downloads",
		"Where downloaded files are saved. Leave it empty for a snowluma-mcp folder in your user cache folder.", false},
	{"task_dir", "SNOWLUMA_MCP_TASK_DIR", "directory", "Folder for background transfers",
		"A folder where write mode keeps background transfers across restarts, private to you. " +
			"Choose an empty folder (snowluma-mcp makes it private when it starts); leave it empty to turn background transfers off.", false},
	{"trusted_users", "SNOWLUMA_MCP_TRUSTED_USERS", "string", "Trusted QQ numbers (lockdown)",
		"QQ numbers, separated by commas, whose messages the agent may read; everyone else's are withheld. " +
			"Your own account is always trusted. Leave it empty to show everything, marked as from others.", false},
}

// A bundleTool is a tool as the host lists it before the server runs.
type bundleTool struct {
	Name string
	// Mode is the least mode that lists the tool; When is the further
	// condition, if any.
	Mode, When, What string
}

// bundleWhat is each tool's line in the host's list. The tool's name, the
// least mode that lists it and the setting it also needs come from the
// tool's own declaration (bundleTools); only this line is written here, in
// English, because the tool's own description is written for the agent.
var bundleWhat = map[string]string{
	"list_actions":             "Lists SnowLuma's OneBot actions, with filters and paging.",
	"get_action":               "Shows one action's parameters, result and examples.",
	"search_actions":           "Searches the actions by name, alias, summary and category, in English or Chinese.",
	"list_categories":          "Lists the action categories.",
	"get_runtime_info":         "Shows the mode and limits; in read and write mode it also checks the connection to SnowLuma.",
	"query_action":             "Runs a read-only action, such as get_group_list.",
	"query_action_with_input":  "Runs a read-only action, asking you for missing parameters.",
	"invoke_action":            "Runs any action: sends messages, uploads and downloads files.",
	"invoke_action_with_input": "Runs any action, asking you for missing parameters.",
	"preview_message":          "Shows a message draft without sending it.",
	"invoke_action_background": "Runs a file transfer in the background.",
	"list_tasks":               "Lists the background transfers.",
	"subscribe_events":         "Follows live QQ events of one account.",
	"unsubscribe_events":       "Stops following live events.",
}

// The further conditions a tool can have beyond its mode.
const (
	whenTasks  = "with a folder for background transfers"
	whenEvents = "with the WebSocket server set"
)

// bundleTools are every tool the server can list, in its listing order:
// handlers.All with every optional part on. A tool of the tasks extension
// also needs the task folder; one that only a server with an events URL
// has needs that URL. A tool without a line in bundleWhat is an error, so
// a new tool cannot ship unlisted.
func bundleTools() ([]bundleTool, error) {
	cfg, _, err := config.Load(func(string) string { return "" })
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	plain := map[string]bool{}
	for _, tl := range handlers.All(&handlers.Deps{Catalog: cat, Config: cfg}) {
		plain[tl.Name] = true
	}
	var out []bundleTool
	for _, tl := range handlers.All(&handlers.Deps{Catalog: cat, Config: cfg, Events: hub.New(hub.Options{})}) {
		what, ok := bundleWhat[tl.Name]
		if !ok {
			return nil, fmt.Errorf("tool %s has no line for the host's list: add it to bundleWhat in cmd/dist/bundle.go", tl.Name)
		}
		bt := bundleTool{Name: tl.Name, Mode: string(tl.Mode), What: what}
		switch {
		case tl.Tasks:
			bt.When = whenTasks
		case !plain[tl.Name]:
			bt.When = whenEvents
		}
		out = append(out, bt)
	}
	if len(out) != len(bundleWhat) {
		return nil, fmt.Errorf("bundleWhat has %d lines for %d tools: remove the lines of tools that are gone", len(bundleWhat), len(out))
	}
	return out, nil
}

// description is the tool's line in the host's list: what it does and
// when it appears.
func (t bundleTool) description() string {
	when := map[string]string{"docs": "Every mode", "read": "Read and write mode", "write": "Write mode"}[t.Mode]
	if t.When != "" {
		when += ", " + t.When
	}
	return t.What + " " + when + "."
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
type orderedSettings []setting

func (o orderedSettings) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteString("{")
	for i, s := range o {
		if i > 0 {
			b.WriteString(",")
		}
		b.Write(jsonFile(s.Key))
		b.WriteString(":")
		b.Write(jsonFile(mcpbOption{Type: s.Type, Title: s.Title, Description: s.Description, Default: "", Sensitive: s.Sensitive}))
	}
	b.WriteString("}")
	return []byte(b.String()), nil
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
		Description:     "Lets the agent work with your SnowLuma QQ bot (OneBot v11): look up its actions, read, and send.",
		LongDescription: "snowluma-mcp connects Claude to [SnowLuma](https://github.com/SnowLuma/SnowLuma). " +
			"With no settings it runs in docs mode and only looks up SnowLuma's OneBot actions, offline. " +
			"Give it SnowLuma's HTTP server and access token to run read-only actions (read mode), " +
			"or choose write mode to let it send messages and transfer files. " +
			"Every call is checked against the mode and the action's parameters. " +
			"The mode and the settings decide which of the tools listed here appear: each says when.",
		Author:        mcpbAuthor{Name: "snowluma-mcp contributors", URL: repoURL},
		Repository:    repository{Type: "git", URL: repoURL + ".git"},
		Homepage:      repoURL,
		Documentation: repoURL + "#readme",
		Support:       repoURL + "/issues",
		Icon:          "icon.png",
		Server: mcpbServer{Type: "binary", EntryPoint: "server/" + t.exe(),
			MCPConfig: mcpbMCPConfig{Command: bundleCommand, Args: []string{}, Env: env}},
		Tools:         tools,
		Keywords:      []string{"snowluma", "onebot", "qq", "mcp"},
		License:       "MIT",
		Compatibility: mcpbCompatibility{ClaudeDesktop: bundleHostVersion, Platforms: []string{t.npmOS()}},
		UserConfig:    bundleSettings,
	}, nil
}

// bundle is t's .mcpb: the manifest, the icon and the binary (executable),
// with docs (the READMEs and the licence), at the zip's root and dated
// like the archives.
func bundle(version string, t target, bin, png []byte, docs []entry, date time.Time) ([]byte, error) {
	m, err := bundleManifest(version, t)
	if err != nil {
		return nil, err
	}
	return zipArchive("", append([]entry{
		{"manifest.json", 0o644, jsonFile(m)},
		{"icon.png", 0o644, png},
		{"server/" + t.exe(), 0o755, bin},
	}, docs...), date)
}
