// Package config reads snowluma-mcp's settings from the environment once, at
// start, and refuses malformed values with a message that names the variable
// (never its secret value), so a misconfigured client fails loudly instead of
// running with a surprise default.
package config

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// Mode is how much the server may do.
type Mode string

// The three modes, in increasing power.
const (
	ModeDocs  Mode = "docs"
	ModeRead  Mode = "read"
	ModeWrite Mode = "write"
)

// Config is the validated configuration.
type Config struct {
	Mode     Mode
	Endpoint *url.URL // nil in docs mode
	Token    string   // never printed; see Redacted

	Timeout     time.Duration
	DownloadDir string
	// StateDir holds the send budgets every server of the user shares
	// (SNOWLUMA_MCP_STATE_DIR, or the platform's per-user state directory).
	StateDir             string
	UploadRoot           string // "" disables automatic upload
	MaxFileBytes         int64
	DownloadQuotaBytes   int64
	MaxStreams           int
	StreamConnectTimeout time.Duration
	StreamIdleTimeout    time.Duration
	UploadChunkBytes     int
	EventsURL            *url.URL // nil when events are off
	// EventsToken is what the event WebSocket is dialled with:
	// SNOWLUMA_MCP_EVENTS_TOKEN, or Token when that is unset (never
	// printed, and never part of the task directory's scope: events do
	// not touch tasks).
	EventsToken string
	// EventsTokenFrom names the variable EventsToken came from, so that a
	// refusal names the one to change.
	EventsTokenFrom string
	TaskDir         string // "" when tasks are off
	// TrustedUsers are the QQ users whose content lockdown shows; nil
	// when lockdown is off (see trusted.go).
	TrustedUsers []int64
	SendPace     SendPace
	// FellBack is the mode the user set when the server serves docs mode
	// instead, for want of an endpoint; "" otherwise.
	FellBack Mode
	// Broken is the malformed setting that put the server in its
	// explaining state (see Explaining); nil when the configuration is
	// sound.
	Broken *Problem
	// Disabled are the malformed settings of optional services (the
	// events URL and token, and the four folders): each turns off its own service
	// only, and the rest of the mode works.
	Disabled []*Problem
	// Findings are every setting problem as the one reading of the
	// settings (package setup) decided it: what the server does about
	// it, what the person should change, what the agent is told. The
	// runtime report and the instructions say them; `check` prints them.
	Findings []Finding
	// Strays are the variables named like settings that the process's
	// environment sets and the server does not read (see Strays). Load
	// reads through getenv, which cannot list names, so cmd finds them in
	// the whole environment, once, and sets them here for the runtime
	// report and the instructions.
	Strays []Stray
}

// Problem is a setting Load refused: the variable and what it accepts,
// never the value given.
type Problem struct {
	Var string
	Why string
	// WhyZH is Why in Chinese, where it is written (`check` in a Chinese
	// terminal); empty otherwise.
	WhyZH string
}

func (p *Problem) Error() string { return p.Var + " " + p.Why }

// WhyIn is what the variable accepts, in tag's language when written in
// it, else in English.
func (p *Problem) WhyIn(tag lang.Tag) string {
	return lang.Text{EN: p.Why, ZH: p.WhyZH}.In(tag)
}

// Explaining is the configuration of a server whose settings were
// refused: docs mode with every default, so that it connects to nothing and
// opens no directory, and Broken set, so that it can say what is wrong to
// the person through the MCP host, which shows a process that exits at
// start only as "failed to connect".
func Explaining(broken *Problem) *Config {
	cfg, _, _ := Load(func(string) string { return "" })
	cfg.Broken = broken
	return cfg
}

// Allows reports whether a server in mode m offers what needs mode need.
// It is the one place the mode is decided: the tools a client is shown, the
// gate every call passes and the runtime report all ask it.
func (m Mode) Allows(need Mode) bool { return m.rank() >= need.rank() }

// rank orders the modes by power; anything unknown is below docs.
func (m Mode) rank() int {
	switch m {
	case ModeDocs:
		return 1
	case ModeRead:
		return 2
	case ModeWrite:
		return 3
	}
	return 0
}

// ExecutionEnabled reports whether actions can be run at all.
func (c *Config) ExecutionEnabled() bool { return c.Mode.Allows(ModeRead) }

// WriteEnabled reports whether write actions can be run.
func (c *Config) WriteEnabled() bool { return c.Mode.Allows(ModeWrite) }

// Load reads the configuration through getenv. Warnings are conditions worth
// telling the user about on stderr that do not stop the server, in English
// and Chinese. A refused setting is returned as a *Problem.
func Load(getenv func(string) string) (cfg *Config, warnings []lang.Text, err error) {
	p := parser{getenv: getenv}
	cfg = &Config{
		Timeout:              p.millis("SNOWLUMA_MCP_TIMEOUT_MS", 30000),
		MaxFileBytes:         p.bytes("SNOWLUMA_MCP_MAX_FILE_BYTES", 1<<30),
		DownloadQuotaBytes:   p.bytes("SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", 4<<30),
		MaxStreams:           int(p.count("SNOWLUMA_MCP_MAX_STREAMS", 4, 1024)),
		StreamConnectTimeout: p.millis("SNOWLUMA_MCP_STREAM_CONNECT_TIMEOUT_MS", 30000),
		StreamIdleTimeout:    p.millis("SNOWLUMA_MCP_STREAM_IDLE_TIMEOUT_MS", 60000),
		UploadChunkBytes:     p.chunkBytes(),
		UploadRoot:           p.dir("SNOWLUMA_MCP_UPLOAD_ROOT"),
		TaskDir:              p.dir("SNOWLUMA_MCP_TASK_DIR"),
		DownloadDir:          p.dir(DownloadDirVar),
		StateDir:             p.dir(StateDirVar),
		Token:                p.token(TokenVar, webui.NodeHTTP, p.fail),
		EventsToken:          p.token(EventsTokenVar, webui.NodeWS, p.failOff),
		SendPace:             p.sendPace(),
	}
	cfg.EventsTokenFrom = EventsTokenVar
	if p.value(EventsTokenVar) == "" {
		cfg.EventsToken, cfg.EventsTokenFrom = cfg.Token, TokenVar
	}
	cfg.Endpoint = p.url(EndpointVar, false, "http", "https")
	cfg.EventsURL = p.url(EventsVar, true, "ws", "wss")
	if cfg.EventsURL != nil && (cfg.EventsURL.RawQuery != "" || cfg.EventsURL.Fragment != "" || cfg.EventsURL.ForceQuery) {
		p.failOff(EventsVar, lang.Text{EN: "must not carry a query or fragment: the token travels in the Authorization header (set SNOWLUMA_MCP_EVENTS_TOKEN, or SNOWLUMA_MCP_TOKEN when both nodes have the same Token), so remove everything from ? or # on",
			ZH: "不能带查询参数或片段：Token 放在 Authorization 请求头里发送（设置 SNOWLUMA_MCP_EVENTS_TOKEN；两个节点的 Token 相同时设置 SNOWLUMA_MCP_TOKEN 即可），所以把 ? 或 # 及其后面的内容都删掉"})
		cfg.EventsURL = nil
	}
	warnings = append(warnings, p.eventsTokenOff(cfg)...)
	cfg.Mode = p.mode(cfg.Endpoint != nil)
	cfg.TrustedUsers = p.trustedUsers()
	if p.err != nil {
		return nil, nil, p.err
	}
	cfg.Disabled = p.off
	if cfg.Endpoint == nil && cfg.Mode != ModeDocs {
		// Said, with its fix, by the reading of the settings (setup).
		cfg.FellBack = cfg.Mode
		cfg.Mode = ModeDocs
	}
	// A malformed folder is not replaced by the default: its service is
	// off, rather than running somewhere the user did not choose.
	if cfg.DownloadDir == "" && !p.refused(DownloadDirVar) {
		cfg.DownloadDir = defaultDownloadDir()
	}
	if cfg.StateDir == "" && !p.refused(StateDirVar) {
		cfg.StateDir = defaultStateDir(runtime.GOOS, os.Getenv, os.UserHomeDir)
	}
	return cfg, append(warnings, cfg.ignored()...), nil
}

// ignored names the settings the effective mode leaves unused. A user who
// set one expects its feature, so saying nothing would leave them guessing
// why it is missing; every such setting is checked here, in one place.
func (c *Config) ignored() []lang.Text {
	var out []lang.Text
	if c.EventsURL != nil && !c.ExecutionEnabled() {
		out = append(out, lang.Text{EN: fmt.Sprintf("SNOWLUMA_MCP_EVENTS_URL is ignored: live events need read or write mode (with SNOWLUMA_MCP_ENDPOINT), and this server runs in %s mode", c.Mode),
			ZH: fmt.Sprintf("SNOWLUMA_MCP_EVENTS_URL 被忽略：实时事件需要 read 或 write 模式（并设置 SNOWLUMA_MCP_ENDPOINT），而本服务器以 %s 模式运行", c.Mode)})
	}
	if c.TaskDir != "" && !c.WriteEnabled() {
		out = append(out, lang.Text{EN: fmt.Sprintf("SNOWLUMA_MCP_TASK_DIR is ignored: background tasks need write mode, and this server runs in %s mode", c.Mode),
			ZH: fmt.Sprintf("SNOWLUMA_MCP_TASK_DIR 被忽略：后台传输需要 write 模式，而本服务器以 %s 模式运行", c.Mode)})
	}
	return out
}

func defaultDownloadDir() string {
	base, err := os.UserCacheDir()
	if err != nil || !filepath.IsAbs(base) {
		base = os.TempDir()
	}
	return filepath.Join(base, "snowluma-mcp", "downloads")
}

// defaultStateDir is where state that must outlive the process and that
// the system must not purge lives: not a cache directory, whose wiping
// would reset the send budgets. XDG_STATE_HOME (else ~/.local/state) on
// Linux and the other Unixes, ~/Library/Application Support on macOS,
// %LOCALAPPDATA% on Windows; each + snowluma-mcp.
func defaultStateDir(goos string, env func(string) string, home func() (string, error)) string {
	base := ""
	switch goos {
	case "windows":
		base = env("LOCALAPPDATA")
	case "darwin", "ios":
		if h, err := home(); err == nil {
			base = filepath.Join(h, "Library", "Application Support")
		}
	default:
		base = env("XDG_STATE_HOME")
		if !filepath.IsAbs(base) {
			base = ""
			if h, err := home(); err == nil {
				base = filepath.Join(h, ".local", "state")
			}
		}
	}
	if !filepath.IsAbs(base) {
		base = filepath.Join(os.TempDir(), "snowluma-mcp-state")
	}
	return filepath.Join(base, "snowluma-mcp")
}

// parser collects the first error so Load reads like a table. Its errors
// name the variable and what it accepts, never the value given: a value in
// the wrong variable is often a token, and startup errors end up in logs.
// Each refusal is written once in both languages (why.EN and why.ZH side
// by side), so `check` in a Chinese terminal gives the cause in Chinese.
type parser struct {
	getenv func(string) string
	err    *Problem
	// off are the refused settings of optional services (failOff).
	off []*Problem
}

func (p *parser) fail(name string, why lang.Text) {
	if p.err == nil {
		p.err = &Problem{Var: name, Why: why.EN, WhyZH: why.ZH}
	}
}

// refused reports whether the optional setting name was refused.
func (p *parser) refused(name string) bool {
	for _, o := range p.off {
		if o.Var == name {
			return true
		}
	}
	return false
}

// failOff refuses the setting of an optional service: the service is off
// and the rest of the mode works, so it does not stop the reading.
func (p *parser) failOff(name string, why lang.Text) {
	p.off = append(p.off, &Problem{Var: name, Why: why.EN, WhyZH: why.ZH})
}

func (p *parser) value(name string) string { return strings.TrimSpace(p.getenv(name)) }

func (p *parser) count(name string, def, max int64) int64 {
	v := p.value(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > max {
		p.fail(name, lang.Text{EN: fmt.Sprintf("must be a whole number from 1 to %d", max), ZH: fmt.Sprintf("必须是 1 到 %d 之间的整数", max)})
		return def
	}
	return n
}

// chunkBytes reads SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES. SnowLuma tears down the
// connection of a request body over 2 MiB without answering, so the limit
// is upload's, derived from the largest request a chunk can travel in. The
// value given is not repeated: the message already says what is accepted.
func (p *parser) chunkBytes() int {
	const name = "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES"
	v := p.value(name)
	if v == "" {
		return 524288
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 1:
		p.fail(name, lang.Text{EN: fmt.Sprintf("must be a whole number of bytes from 1 to %d", upload.MaxChunkBytes),
			ZH: fmt.Sprintf("必须是 1 到 %d 之间的整数（字节）", upload.MaxChunkBytes)})
	case n > upload.MaxChunkBytes:
		p.fail(name, lang.Text{EN: fmt.Sprintf("must be at most %d bytes: a larger chunk's request would pass SnowLuma's %d-byte body cap, and SnowLuma drops such requests without an answer",
			upload.MaxChunkBytes, upload.BodyCap),
			ZH: fmt.Sprintf("最多 %d 字节：分块再大，请求就会超过 SnowLuma 的 %d 字节请求体上限，而 SnowLuma 会直接丢弃这样的请求、不作应答",
				upload.MaxChunkBytes, upload.BodyCap)})
	default:
		return n
	}
	return 524288
}

// token reads the token variable name, copied from node's 授权 Token. It
// travels in the Authorization header, which cannot carry a control
// character: a line break pasted along with the token would otherwise make
// every call fail as if SnowLuma were down. Like every other refusal, the
// message never repeats the value. refuse is p.fail for the main token,
// which every call needs, and p.failOff for the events token, which only
// live events need (BASE-1, Q-3).
func (p *parser) token(name, node string, refuse func(name string, why lang.Text)) string {
	v := p.value(name)
	if strings.ContainsFunc(v, unicode.IsControl) {
		refuse(name, lang.Text{EN: malformedToken.EN + webui.InWebUI(node, webui.FieldToken),
			ZH: malformedToken.ZH + webui.InWebUIZH(node, webui.FieldToken) + "重新复制 Token"})
		return ""
	}
	return v
}

// malformedToken is why a token with a control character is refused; the
// place to copy it from again follows.
var malformedToken = lang.Text{EN: "must not contain control characters such as a line break or a tab, which often come along when a token is pasted: " +
	"it travels in the Authorization header, which cannot carry them. Copy the token again from ",
	ZH: "不能含有换行、制表符之类的控制字符（粘贴 Token 时常会带上）：Token 放在 Authorization 请求头里发送，而请求头装不下它们。请从 "}

// eventsTokenOff applies a refused SNOWLUMA_MCP_EVENTS_TOKEN: with an
// events URL set, live events are off (the refusal stays in p.off and
// says why); without one the token is never used, so nothing is off and
// the refusal becomes a note that the token is unused.
func (p *parser) eventsTokenOff(cfg *Config) []lang.Text {
	if !p.refused(EventsTokenVar) {
		return nil
	}
	if p.value(EventsVar) != "" {
		cfg.EventsURL = nil
		return nil
	}
	kept := p.off[:0]
	for _, o := range p.off {
		if o.Var != EventsTokenVar {
			kept = append(kept, o)
		}
	}
	p.off = kept
	return []lang.Text{{EN: EventsTokenVar + " is ignored: only live events use it, and " + EventsVar + " is not set (when you set it, copy the token again: this one holds a control character such as a line break or a tab, which a token cannot carry)",
		ZH: EventsTokenVar + " 被忽略：只有实时事件用它，而 " + EventsVar + " 没有设置（设置它时请重新复制 Token：现在这个含有换行、制表符之类的控制字符，Token 里不能有）"}}
}

func (p *parser) bytes(name string, def int64) int64 { return p.count(name, def, 1<<50) }

func (p *parser) millis(name string, def int64) time.Duration {
	return time.Duration(p.count(name, def, 24*3600*1000)) * time.Millisecond
}

func (p *parser) dir(name string) string {
	v := p.value(name)
	if v != "" && !filepath.IsAbs(v) {
		why := lang.Text{EN: "must be an absolute path: the host decides the working directory, so a relative path has no fixed meaning",
			ZH: "必须是绝对路径：工作目录由宿主决定，相对路径没有确定的含义"}
		if strings.HasPrefix(v, "~") {
			// No shell reads the host's env block, so ~ stays a
			// literal character; say so rather than leave the
			// user staring at a path that looks absolute to them.
			why = lang.Text{EN: "must be an absolute path, and ~ is not expanded: no shell reads this setting. Write the home directory out (for example /home/me/... or C:\\Users\\me\\...)",
				ZH: "必须是绝对路径，而且 ~ 不会被展开：没有 shell 读取这项设置。把主目录完整写出来（例如 /home/me/... 或 C:\\Users\\me\\...）"}
		}
		p.failOff(name, why)
		return ""
	}
	if v == "" {
		return ""
	}
	return filepath.Clean(v)
}

// url parses an endpoint URL; optional says its service is optional (a
// refusal then turns off only that). Its text is never echoed back whole,
// because users put access tokens into URLs more often than they should: a
// suggested correction carries only the scheme, host and path.
func (p *parser) url(name string, optional bool, schemes ...string) *url.URL {
	fail := p.fail
	if optional {
		fail = p.failOff
	}
	v := p.value(name)
	if v == "" {
		return nil
	}
	if why := urlProblem(v, schemes); why.EN != "" {
		fail(name, why)
		return nil
	}
	u, _ := url.Parse(v)
	u.Scheme = strings.ToLower(u.Scheme)
	return u
}

func (p *parser) mode(haveEndpoint bool) Mode {
	switch v := Mode(strings.ToLower(p.value("SNOWLUMA_MCP_MODE"))); v {
	case ModeDocs, ModeRead, ModeWrite:
		return v
	case "":
		if haveEndpoint {
			return ModeRead
		}
		return ModeDocs
	default:
		why := lang.Text{EN: "must be docs, read or write", ZH: "只能是 docs、read 或 write"}
		if m := nearestMode(string(v)); m != "" {
			// In brackets: every caller follows a Problem with its own
			// punctuation (". ", "; "), which after a bare "?" reads
			// "did you mean read?.".
			why.EN += " (did you mean " + string(m) + "?)"
			why.ZH += "（你是不是想写 " + string(m) + "？）"
		}
		p.fail(ModeVar, why)
		return ModeDocs
	}
}
