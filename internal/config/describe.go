package config

// The words the docs show for each setting: what it means, what it
// accepts and what happens when it is absent, in English and Simplified
// Chinese. cmd/docgen writes the Configuration tables of docs/ from them
// (between the markers named "variables"), so the tables cannot name a
// setting Load does not read or miss one it does: TestEverySettingIsDescribed
// holds this list to Variables, and the numbers it states for a default to
// what Load uses.

// Words is one text in both languages the docs are written in.
type Words struct {
	En, Zh string
}

// Description is one setting as the docs describe it.
type Description struct {
	Name    string
	Meaning Words
	Accepts Words
	Absent  Words
}

// Descriptions returns every setting, in the order the docs list them.
func Descriptions() []Description { return descriptions }

var descriptions = []Description{
	{Name: "SNOWLUMA_MCP_ENDPOINT",
		Meaning: Words{"SnowLuma's OneBot HTTP server. Host names resolve through `/etc/hosts` and DNS (Go's own resolver): a name only an NSS module knows, such as mDNS `.local`, needs its address instead",
			"SnowLuma 的 OneBot HTTP API 服务。主机名通过 `/etc/hosts` 和 DNS 解析（Go 自带的解析器）：只有 NSS 模块才认识的名字，比如 mDNS 的 `.local`，请改填它的地址"},
		Accepts: Words{"an `http://` or `https://` URL with a host and no user or password", "带主机、不带用户名和密码的 `http://` 或 `https://` URL"},
		Absent: Words{"docs mode",
			"docs 模式"}},
	{Name: "SNOWLUMA_MCP_TOKEN",
		Meaning: Words{"SnowLuma's `accessToken`, sent as `Authorization: Bearer …` to the HTTP and the WebSocket server",
			"SnowLuma 的 `accessToken`，以 `Authorization: Bearer …` 发给 HTTP API 服务和 WebSocket 服务"},
		Accepts: Words{"text without control characters (a line break or tab inside is refused)", "不含控制字符的文本（中间带换行或制表符会被拒绝）"},
		Absent: Words{"no `Authorization` header",
			"不发送 `Authorization` 请求头"}},
	{Name: "SNOWLUMA_MCP_MODE",
		Meaning: Words{"what the agent may do",
			"智能体能做什么"},
		Accepts: Words{"`docs`, `read` or `write`, any case", "`docs`、`read` 或 `write`，不区分大小写"},
		Absent: Words{"`read` with an endpoint, else `docs`; `read` or `write` without an endpoint warns on stderr and serves `docs`",
			"有 endpoint 时为 `read`，否则为 `docs`；没有 endpoint 却设为 `read` 或 `write` 时，会在 stderr 上警告并以 `docs` 运行"}},
	{Name: "SNOWLUMA_MCP_TIMEOUT_MS",
		Meaning: Words{"how long an ordinary request waits for SnowLuma",
			"普通请求等待 SnowLuma 的时长"},
		Accepts: Words{"1–86400000", "1–86400000"},
		Absent: Words{"30000",
			"30000"}},
	{Name: "SNOWLUMA_MCP_DOWNLOAD_DIR",
		Meaning: Words{"where stream downloads are saved, on the MCP host",
			"流式下载的文件保存在哪里（MCP 宿主所在的机器上）"},
		Accepts: Words{"an absolute path", "绝对路径"},
		Absent: Words{"the user cache directory + `/snowluma-mcp/downloads` (`~/.cache` or `$XDG_CACHE_HOME` on Linux, `~/Library/Caches` on macOS, `%LocalAppData%` on Windows); with no home directory, the temporary directory (`$TMPDIR`, else `/tmp`; `%TEMP%` on Windows) + `/snowluma-mcp/downloads`",
			"用户缓存目录加 `/snowluma-mcp/downloads`（Linux 为 `~/.cache` 或 `$XDG_CACHE_HOME`，macOS 为 `~/Library/Caches`，Windows 为 `%LocalAppData%`）；没有主目录时，为临时目录（`$TMPDIR`，否则 `/tmp`；Windows 为 `%TEMP%`）加 `/snowluma-mcp/downloads`"}},
	{Name: "SNOWLUMA_MCP_UPLOAD_ROOT",
		Meaning: Words{"the directory `execution.input_file` must lie inside",
			"`execution.input_file` 必须位于其中的目录"},
		Accepts: Words{"an absolute path", "绝对路径"},
		Absent: Words{"automatic upload is off",
			"不启用自动上传"}},
	{Name: "SNOWLUMA_MCP_MAX_FILE_BYTES",
		Meaning: Words{"the largest single upload or download",
			"单次上传或下载的最大大小"},
		Accepts: Words{"1–1125899906842624 (2^50)", "1–1125899906842624（2^50）"},
		Absent: Words{"1073741824 (1 GiB)",
			"1073741824（1 GiB）"}},
	{Name: "SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES",
		Meaning: Words{"the most the download directory may hold",
			"下载目录最多能存放多少"},
		Accepts: Words{"1–1125899906842624 (2^50)", "1–1125899906842624（2^50）"},
		Absent: Words{"4294967296 (4 GiB)",
			"4294967296（4 GiB）"}},
	{Name: "SNOWLUMA_MCP_MAX_STREAMS",
		Meaning: Words{"stream calls running at once (background tasks included)",
			"同时运行的流式调用数（含后台任务）"},
		Accepts: Words{"1–1024", "1–1024"},
		Absent: Words{"4",
			"4"}},
	{Name: "SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS",
		Meaning: Words{"how long a stream waits for SnowLuma's first frame, and a stream call for a free slot",
			"流等待 SnowLuma 第一帧的时长，也是流式调用等待空闲通道的时长"},
		Accepts: Words{"1–86400000", "1–86400000"},
		Absent: Words{"30000",
			"30000"}},
	{Name: "SNOWLUMA_MCP_STREAM_IDLE_TIMEOUT_MS",
		Meaning: Words{"the longest pause between two frames of a stream",
			"流中两帧之间的最长间隔"},
		Accepts: Words{"1–86400000", "1–86400000"},
		Absent: Words{"60000",
			"60000"}},
	{Name: "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES",
		Meaning: Words{"raw bytes per upload chunk. SnowLuma drops a request body over 2097152 bytes without answering; a chunk travels as base64 (a third more) plus up to 572 bytes of JSON, stream ID and file name (shortened to 255 bytes of JSON), hence the ceiling",
			"每个上传分块的原始字节数。SnowLuma 会直接丢弃超过 2097152 字节的请求体而不应答；分块以 base64 传输（多出三分之一），再加上最多 572 字节的 JSON、流 ID 和文件名（文件名截短到 JSON 中的 255 字节），上限由此而来"},
		Accepts: Words{"1–1571840", "1–1571840"},
		Absent: Words{"524288",
			"524288"}},
	{Name: "SNOWLUMA_MCP_EVENTS_URL",
		Meaning: Words{"SnowLuma's OneBot WebSocket server; enables the event tools in read and write mode. Never derived from the HTTP endpoint",
			"SnowLuma 的 OneBot WebSocket 服务；在 read 和 write 模式下启用事件工具。从不由 HTTP endpoint 推导"},
		Accepts: Words{"a `ws://` or `wss://` URL with a host and no user, password, query or fragment", "带主机、不带用户名、密码、查询参数和片段的 `ws://` 或 `wss://` URL"},
		Absent: Words{"no event tools",
			"没有事件工具"}},
	{Name: "SNOWLUMA_MCP_TASK_DIR",
		Meaning: Words{"a private directory for background tasks (write mode only); created private (0700; an owner-only access list on Windows), refused if others can read it",
			"存放后台任务的私有目录（仅 write 模式）；创建为私有（0700；在 Windows 上是只有所有者可访问的访问控制列表），其他人能读取时会被拒绝"},
		Accepts: Words{"an absolute path", "绝对路径"},
		Absent: Words{"no background tasks",
			"没有后台任务"}},
	{Name: "SNOWLUMA_MCP_STATE_DIR",
		Meaning: Words{"where the send budgets that every server of a QQ account shares are kept (write mode); created private (0700; an owner-only access list on Windows); while others can enter it, sends are refused",
			"同一 QQ 账号的所有服务器共用的发送额度保存在哪里（write 模式）；创建为私有（0700；在 Windows 上是只有所有者可访问的访问控制列表）；只要其他人能进入该目录，发送就会被拒绝"},
		Accepts: Words{"an absolute path", "绝对路径"},
		Absent: Words{"the per-user state directory, which the system does not purge: `$XDG_STATE_HOME` or `~/.local/state` (Linux), `~/Library/Application Support` (macOS), `%LOCALAPPDATA%` (Windows), each + `snowluma-mcp`",
			"按用户的状态目录，系统不会清理它：`$XDG_STATE_HOME` 或 `~/.local/state`（Linux）、`~/Library/Application Support`（macOS）、`%LOCALAPPDATA%`（Windows），再加 `snowluma-mcp`"}},
	{Name: "SNOWLUMA_MCP_SEND_PACE",
		Meaning: Words{"send budgets (see [Send pacing](pacing.md)): a budget of B sends at once that refills N sends every D (a Go duration such as `1m` or `10s`); a budget left out keeps its default",
			"发送额度（见“[发送节奏](pacing.md)”）：额度 B 表示可以一下子连发 B 条，之后每 D 恢复 N 条（D 为 Go 的时长写法，如 `1m` 或 `10s`）；没写的那个额度保持默认"},
		Accepts: Words{"`off`, or `target=B+N/D` and/or `account=B+N/D` separated by a comma", "`off`，或 `target=B+N/D` 和/或 `account=B+N/D`，用逗号分隔"},
		Absent: Words{"`target=3+12/1m,account=6+30/1m`",
			"`target=3+12/1m,account=6+30/1m`"}},
	{Name: "SNOWLUMA_MCP_SEND_WAIT_MS",
		Meaning: Words{"longest a send waits for its budgets; a send that would wait longer is refused at once as `rate_limited`",
			"一次发送最多为额度等待多久；需要等得更久的发送会立即以 `rate_limited` 拒绝"},
		Accepts: Words{"0–600000", "0–600000"},
		Absent: Words{"5000",
			"5000"}},
	{Name: "SNOWLUMA_MCP_TRUSTED_USERS",
		Meaning: Words{"QQ numbers whose messages, comments and notices an agent may read: turns lockdown on (see [Lockdown](trust-boundary.md)); the logged-in account is always trusted",
			"智能体可以读到其消息、留言和通知内容的 QQ 号：设置后开启锁定（见“[锁定](trust-boundary.md)”）；当前登录的账号始终受信任"},
		Accepts: Words{"positive QQ numbers separated by commas or spaces", "正整数 QQ 号，用逗号或空格分隔"},
		Absent: Words{"everything is shown, marked as third-party",
			"全部显示，并标注为第三方内容"}},
}
