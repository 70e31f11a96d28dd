package config

import "github.com/snowluma/snowluma-mcp/internal/lang"

// A DialogSetting is one setting a host asks the user for in a dialog of
// its own (the .mcpb bundle's user_config, which cmd/release writes) and
// the variable it fills, with its title and help in both languages: the
// bundle and the docs' table of it (cmd/docgen, the markers named
// "bundle-settings") read the same list.
type DialogSetting struct {
	Key, Var, Type     string
	Title, Description lang.Text
	Sensitive          bool
}

// HostTitle and HostDescription are what the host shows: a manifest
// cannot localize a setting, so each carries both languages, English first.
func (s DialogSetting) HostTitle() string { return s.Title.EN + " · " + s.Title.ZH }

// HostDescription: see HostTitle.
func (s DialogSetting) HostDescription() string { return s.Description.EN + "\n" + s.Description.ZH }

// Dialog returns the settings a host asks for, in the order it shows them.
func Dialog() []DialogSetting { return append([]DialogSetting(nil), dialog...) }

// dialog is what the host asks for, in the order it shows them.
// None is required (docs mode needs nothing), so each has "default": "":
// the host then passes an empty value for a setting left blank, which the
// server treats as unset, where it would otherwise pass the literal
// ${user_config.KEY} placeholder. SnowLuma's own words are its WebUI's,
// which is in Chinese: 节点配置 (where the nodes are), HTTP API and WS 服务端
// (the kinds of node), 授权 Token (a node's token).
var dialog = []DialogSetting{
	{"mode", "SNOWLUMA_MCP_MODE", "string", lang.Text{EN: "Mode", ZH: "模式"}, lang.Text{
		EN: "What the agent may do: docs (look up SnowLuma's actions only, no connection), read (also run read-only actions) " +
			"or write (also send messages and run any action, as your own QQ account). " +
			"Leave it empty for read when the HTTP server below is set, else docs.",
		ZH: "智能体能做什么：docs（只查阅 SnowLuma 的动作，不连接）、read（还能执行只读动作）" +
			"或 write（还能发消息、执行任意动作，用的是你自己的 QQ 账号）。留空时，填了下面的 HTTP API 就是 read，否则是 docs。",
	}, false},
	{"endpoint", "SNOWLUMA_MCP_ENDPOINT", "string", lang.Text{EN: "SnowLuma HTTP server", ZH: "SnowLuma HTTP API 地址"}, lang.Text{
		EN: "The address of an HTTP API node in SnowLuma's WebUI (节点配置), such as http://127.0.0.1:3000/. " +
			"Leave it empty for docs mode.",
		ZH: "SnowLuma WebUI“节点配置”里 HTTP API 节点的地址，例如 http://127.0.0.1:3000/。只用 docs 模式时留空。",
	}, false},
	{"token", "SNOWLUMA_MCP_TOKEN", "string", lang.Text{EN: "Access token", ZH: "授权 Token"}, lang.Text{
		EN: "That node's 授权 Token, copied exactly; it is kept in the system keychain. Leave it empty if the node has none.",
		ZH: "这个 HTTP API 节点的授权 Token，原样复制；保存在系统的安全存储里（macOS 上为钥匙串）。节点没有 Token 时留空。",
	}, true},
	{"events_url", "SNOWLUMA_MCP_EVENTS_URL", "string", lang.Text{EN: "SnowLuma WebSocket server (live events)", ZH: "SnowLuma 的 WS 服务端（实时事件）"}, lang.Text{
		EN: "The address of a WS 服务端 (WebSocket server) node in SnowLuma's WebUI, such as ws://127.0.0.1:3001/. " +
			"Turns on the live event tools in read and write mode. Leave it empty for none.",
		ZH: "SnowLuma WebUI“节点配置”里 WS 服务端节点的地址，例如 ws://127.0.0.1:3001/。" +
			"填写后，read 和 write 模式提供实时事件工具。不需要时留空。",
	}, false},
	{"events_token", "SNOWLUMA_MCP_EVENTS_TOKEN", "string", lang.Text{EN: "WebSocket server's access token", ZH: "WS 服务端的授权 Token"}, lang.Text{
		EN: "That WS 服务端 node's 授权 Token, copied exactly; it is kept in the system keychain. SnowLuma gives each node a Token of its own. " +
			"Leave it empty when the node has the same Token as the HTTP API node (or none): events then reuse the access token above.",
		ZH: "这个 WS 服务端节点的授权 Token，原样复制；保存在系统的安全存储里（macOS 上为钥匙串）。SnowLuma 会给每个节点各自生成 Token。" +
			"如果它和 HTTP API 节点的 Token 相同（或者没有 Token），就留空，事件连接会沿用上面的授权 Token。",
	}, true},
	{"upload_root", "SNOWLUMA_MCP_UPLOAD_ROOT", "directory", lang.Text{EN: "Folder for uploads", ZH: "上传文件夹"}, lang.Text{
		EN: "In write mode the agent may upload files from inside this folder only. Leave it empty to turn automatic upload off.",
		ZH: "write 模式下，智能体只能上传这个文件夹里的文件。留空则关闭自动上传。",
	}, false},
	{"download_dir", "SNOWLUMA_MCP_DOWNLOAD_DIR", "directory", lang.Text{EN: "Folder for downloads", ZH: "下载文件夹"}, lang.Text{
		EN: "Where downloaded files are saved. Leave it empty for a snowluma-mcp folder in your user cache folder.",
		ZH: "下载的文件保存在这里。留空时保存在你的用户缓存文件夹里的 snowluma-mcp 文件夹。",
	}, false},
	{"task_dir", "SNOWLUMA_MCP_TASK_DIR", "directory", lang.Text{EN: "Folder for background transfers", ZH: "后台传输文件夹"}, lang.Text{
		EN: "A folder, private to you, where write mode keeps background transfers across restarts. " +
			"Choose an empty folder (snowluma-mcp makes it private when it starts); leave it empty to turn background transfers off.",
		ZH: "一个只有你能打开的文件夹，write 模式在这里保存后台传输，重启后仍在。请选择一个空文件夹（snowluma-mcp 启动时会把它设为私有）；留空则关闭后台传输。",
	}, false},
	{"trusted_users", "SNOWLUMA_MCP_TRUSTED_USERS", "string", lang.Text{EN: "Trusted QQ numbers (lockdown)", ZH: "受信任名单（锁定）"}, lang.Text{
		EN: "QQ numbers, separated by commas, whose messages the agent may read; everyone else's are withheld. " +
			"Your own account is always trusted. Leave it empty to show everything, marked as from others.",
		ZH: "用逗号分隔的 QQ 号，智能体只能读到这些人的消息，其他人的会被隐去。你自己的账号始终受信任。留空则全部显示，并标明来自他人。",
	}, false},
}
