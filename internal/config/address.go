package config

import (
	"net"
	"net/url"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/typo"
)

// The names of the settings that decide what the server connects to.
const (
	ModeVar     = "SNOWLUMA_MCP_MODE"
	EndpointVar = "SNOWLUMA_MCP_ENDPOINT"
	TokenVar    = "SNOWLUMA_MCP_TOKEN"
	EventsVar   = "SNOWLUMA_MCP_EVENTS_URL"
	// EventsTokenVar is the WS 服务端 node's own token. SnowLuma gives
	// each node a random token of its own, so one variable for both made
	// users copy one node's token over the other's; unset, events reuse
	// TokenVar.
	EventsTokenVar = "SNOWLUMA_MCP_EVENTS_TOKEN"
	TaskDirVar     = "SNOWLUMA_MCP_TASK_DIR"
	StateDirVar    = "SNOWLUMA_MCP_STATE_DIR"
	// DownloadDirVar is download.DirVar (which this package cannot
	// import).
	DownloadDirVar = "SNOWLUMA_MCP_DOWNLOAD_DIR"
)

// urlProblem says what is wrong with v as a URL of one of schemes (the
// first is the one suggested), and the corrected URL when one can be
// told; "" when it is sound. People copy addresses from SnowLuma's WebUI,
// whose node cards show "0.0.0.0:3000/": no scheme, and the address a
// node listens on rather than one a client can connect to (Windows
// refuses to connect to 0.0.0.0). Both are named with the form to write,
// in English and Chinese side by side; EN is "" when v is sound.
func urlProblem(v string, schemes []string) lang.Text {
	example := schemes[0] + "://127.0.0.1:" + examplePort(schemes[0]) + "/"
	if !strings.Contains(v, "://") {
		// Only a host with a port is repeated corrected: anything else
		// may be a token pasted into the wrong variable.
		if u, err := url.Parse(schemes[0] + "://" + v); err == nil && u.Port() != "" && u.User == nil {
			// The whole corrected form at once: a user told only to add
			// the scheme writes http://0.0.0.0:3000/ and needs a second
			// round to learn about the host.
			why := lang.Text{EN: "is not an absolute URL: it has no scheme", ZH: "不是完整的 URL：缺少协议（scheme）"}
			if everywhere(u.Hostname()) {
				why.EN += ", and it names " + u.Hostname() + ", " + listenAddress.EN
				why.ZH += "，而且写的是 " + u.Hostname() + "，" + listenAddress.ZH
			}
			return lang.Text{EN: why.EN + "; write " + suggest(u.String()), ZH: why.ZH + "；请写成 " + suggest(u.String())}
		}
		return absoluteURL(example)
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return absoluteURL(example)
	}
	scheme := strings.ToLower(u.Scheme)
	if !contains(schemes, scheme) {
		if other := counterpart(scheme); contains(schemes, other) {
			what := lang.Text{EN: "SnowLuma's HTTP API is reached over " + other, ZH: "SnowLuma 的 HTTP API 要用 " + other}
			if other == "ws" || other == "wss" {
				what = lang.Text{EN: "SnowLuma's events come over a WebSocket (its WS 服务端 node), reached with " + other,
					ZH: "SnowLuma 的事件走 WebSocket（它的 WS 服务端节点），要用 " + other}
			}
			why := lang.Text{EN: "uses " + scheme + "://, but " + what.EN + "://", ZH: "用的是 " + scheme + "://，但 " + what.ZH + "://"}
			if s := suggest(other + v[len(scheme):]); s != "" {
				why.EN += ": write " + s
				why.ZH += "：请写成 " + s
			}
			return why
		}
		return lang.Text{EN: "must use scheme " + strings.Join(schemes, " or "), ZH: "协议只能是 " + strings.Join(schemes, " 或 ")}
	}
	if u.User != nil {
		return lang.Text{EN: "must not embed credentials; put the token in " + TokenVar,
			ZH: "不能在地址里写用户名或密码；Token 请填在 " + TokenVar + " 里"}
	}
	if everywhere(u.Hostname()) {
		return lang.Text{EN: "names " + u.Hostname() + ", " + listenAddress.EN + ": write " + suggest(v),
			ZH: "写的是 " + u.Hostname() + "，" + listenAddress.ZH + "：请写成 " + suggest(v)}
	}
	return lang.Text{}
}

// absoluteURL is the refusal of what is no URL at all.
func absoluteURL(example string) lang.Text {
	return lang.Text{EN: "must be an absolute URL with a scheme and a host, such as " + example,
		ZH: "必须是带协议和主机的完整 URL，例如 " + example}
}

// listenAddress says why a listen-everywhere host is refused.
var listenAddress = lang.Text{EN: "the address SnowLuma's WebUI shows for a node that listens on every address, which a client cannot connect to on every system (Windows refuses it)",
	ZH: "这是 SnowLuma WebUI 给监听所有地址的节点显示的地址，客户端并不是在每个系统上都能连上它（Windows 会拒绝）"}

// suggest is v with a listen-everywhere host replaced by the loopback
// one, and without credentials, query or fragment (they may carry a
// token); "" when v is not a URL with a host.
func suggest(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return ""
	}
	host := u.Hostname()
	switch {
	case host == "0.0.0.0":
		host = "127.0.0.1"
	case host == "::":
		host = "::1"
	}
	if port := u.Port(); port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	c := url.URL{Scheme: strings.ToLower(u.Scheme), Host: host, Path: u.Path}
	if c.Path == "" {
		c.Path = "/"
	}
	return c.String()
}

// everywhere reports a host that means "every address" to a listener.
func everywhere(host string) bool { return host == "0.0.0.0" || host == "::" }

// counterpart is the scheme of the other protocol on the same security.
func counterpart(scheme string) string {
	return map[string]string{"http": "ws", "https": "wss", "ws": "http", "wss": "https"}[scheme]
}

// examplePort is SnowLuma's default port for the protocol of scheme.
func examplePort(scheme string) string {
	if scheme == "ws" || scheme == "wss" {
		return "3001"
	}
	return "3000"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// modeWords are what people write for a mode that no spelling distance
// reaches: the read-only/read-write vocabulary of other tools, and the
// modes' names in Chinese (a Chinese guide or WebUI says 只读). Hyphens,
// underscores and spaces are dropped before the lookup.
var modeWords = map[string]Mode{
	"readonly": ModeRead, "ro": ModeRead, "只读": ModeRead, "读": ModeRead, "读取": ModeRead,
	"readwrite": ModeWrite, "rw": ModeWrite, "读写": ModeWrite, "写": ModeWrite, "写入": ModeWrite, "可写": ModeWrite,
	"doc": ModeDocs, "documentation": ModeDocs, "文档": ModeDocs, "仅文档": ModeDocs,
}

// nearestMode is the mode v most likely meant (by the edit distance the
// variable names are matched with), or "" when none is close.
func nearestMode(v string) Mode {
	if m, ok := modeWords[strings.NewReplacer("-", "", "_", "", " ", "").Replace(v)]; ok {
		return m
	}
	best, bestD := Mode(""), 3
	for _, m := range []Mode{ModeDocs, ModeRead, ModeWrite} {
		if d := typo.Distance(v, string(m)); d < bestD {
			best, bestD = m, d
		}
	}
	return best
}
