package checkup

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// answer is one probe's outcome.
type answer struct {
	reply *onebot.Reply
	err   error
}

func (a answer) ok() bool { return a.err == nil && a.reply.Status == "ok" && a.reply.Retcode == "0" }

func (a answer) unknown() bool {
	return a.err == nil && a.reply.UnknownAction()
}

// endpoint checks that the endpoint is SnowLuma's HTTP server on its path,
// that it accepts the token, the account it is logged in to, and its
// version against the bundled catalog. It returns the account's QQ number
// (0 when unknown), which the events check expects in its greeting.
func (r *Report) endpoint(ctx context.Context, cfg *config.Config, catalogVersion string, wait time.Duration) int64 {
	client := onebot.New(cfg.Endpoint, cfg.Token, onebot.StreamTimeouts{})
	answers := map[string]answer{}
	for _, name := range onebot.Probes {
		pctx, cancel := context.WithTimeout(ctx, wait)
		reply, err := client.Do(pctx, name, nil)
		cancel()
		answers[name] = answer{reply: reply, err: err}
	}
	first := answers[onebot.Probes[0]]
	at := redact(cfg.Endpoint)
	switch {
	case first.err != nil && fault.CodeOf(first.err) == fault.CodeUpstreamAuth:
		r.add(Item{Name: "endpoint", Status: OK, Detail: r.say(lang.Text{EN: "SnowLuma's HTTP server answers at " + at, ZH: "SnowLuma 的 HTTP API 节点在 " + at + " 应答"})})
		item := r.failure("token", first.err)
		if p := pasted(config.TokenVar, cfg.Token); p != nil {
			item.Detail += r.say(p.what)
			item.Fix = r.say(p.fix)
		} else if cfg.EventsURL != nil {
			// Said beside the HTTP node's fix, so that the two
			// nodes' fixes never ask for one token in two places.
			item.Fix = r.say(lang.Text{EN: tokenFix.EN + bothTokens.EN + again.EN, ZH: tokenFix.ZH + bothTokens.ZH + again.ZH})
		}
		r.add(item)
		r.skip(lang.Text{EN: "SnowLuma refused the token", ZH: "SnowLuma 拒绝了 Token"}, "account", "version")
		return 0
	case first.err != nil:
		r.add(r.failure("endpoint", first.err))
		r.skip(endpointFailed, "token", "account", "version")
		return 0
	case allUnknown(answers):
		r.add(Item{Name: "endpoint", Status: Fail,
			Detail: r.say(lang.Text{EN: onebot.PathReadAsAction(onebot.Path(cfg.Endpoint), onebot.Probes),
				ZH: "SnowLuma 对 " + strings.Join(onebot.Probes, "、") + " 都返回 retcode 1404“unknown action”，而每个 SnowLuma 都认识这些动作：" +
					"它多半把 SNOWLUMA_MCP_ENDPOINT 的路径 " + strconv.Quote(onebot.Path(cfg.Endpoint)) + " 当成了动作名"}),
			Fix: r.say(personFix(fault.CodeWrongEndpoint))})
		r.skip(endpointFailed, "token", "account", "version")
		return 0
	}
	r.add(Item{Name: "endpoint", Status: OK, Detail: r.say(lang.Text{EN: "SnowLuma's OneBot HTTP server answers at " + at, ZH: "SnowLuma 的 HTTP API 节点在 " + at + " 应答"})})
	if cfg.Token == "" {
		r.add(Item{Name: "token", Status: OK, Detail: r.say(lang.Text{EN: "SnowLuma accepts the requests without SNOWLUMA_MCP_TOKEN",
			ZH: "不设 SNOWLUMA_MCP_TOKEN，SnowLuma 也接受请求"})})
	} else {
		r.add(Item{Name: "token", Status: OK, Detail: r.say(lang.Text{EN: "SNOWLUMA_MCP_TOKEN is accepted by the HTTP API node",
			ZH: "HTTP API 节点接受 SNOWLUMA_MCP_TOKEN"})})
	}
	id := r.account(answers[onebot.Probes[0]], answers[onebot.Probes[1]])
	r.version(answers[onebot.Probes[2]], catalogVersion)
	return id
}

// endpointFailed is why the items after a failed endpoint are skipped.
var endpointFailed = lang.Text{EN: "the endpoint check failed", ZH: "endpoint 检查失败"}

func allUnknown(answers map[string]answer) bool {
	for _, name := range onebot.Probes {
		if !answers[name].unknown() {
			return false
		}
	}
	return true
}

// account reports who SnowLuma is logged in as, and whether it is online.
func (r *Report) account(login, status answer) int64 {
	if !login.ok() {
		r.add(r.refused("account", "get_login_info", login))
		return 0
	}
	var who struct {
		Data struct {
			UserID   int64  `json:"user_id"`
			Nickname string `json:"nickname"`
		} `json:"data"`
	}
	_ = json.Unmarshal(login.reply.Raw, &who)
	detail := lang.Text{EN: fmt.Sprintf("logged in as %d", who.Data.UserID), ZH: fmt.Sprintf("已登录 %d", who.Data.UserID)}
	if who.Data.Nickname != "" {
		detail.EN += fmt.Sprintf(" (%s)", who.Data.Nickname)
		detail.ZH += fmt.Sprintf("（%s）", who.Data.Nickname)
	}
	var state struct {
		Data struct {
			Online bool `json:"online"`
		} `json:"data"`
	}
	switch {
	case !status.ok():
		r.add(r.refused("account", "get_status", status))
	case json.Unmarshal(status.reply.Raw, &state) != nil || !state.Data.Online:
		r.add(Item{Name: "account", Status: Fail,
			Detail: r.say(lang.Text{EN: detail.EN + ", but SnowLuma reports the account offline", ZH: detail.ZH + "，但 SnowLuma 报告该账号离线"}),
			Fix:    r.say(lang.Text{EN: "log the account in again in SnowLuma's WebUI", ZH: "在 SnowLuma 的 WebUI 里重新登录该账号"})})
	default:
		r.add(Item{Name: "account", Status: OK, Detail: r.say(lang.Text{EN: detail.EN + ", online", ZH: detail.ZH + "，在线"})})
	}
	return who.Data.UserID
}

// version compares SnowLuma's version with the catalog's. A difference is
// a warning: most actions stay the same across versions.
func (r *Report) version(v answer, catalogVersion string) {
	if !v.ok() {
		r.add(r.refused("version", "get_version_info", v))
		return
	}
	var info struct {
		Data struct {
			AppVersion string `json:"app_version"`
		} `json:"data"`
	}
	_ = json.Unmarshal(v.reply.Raw, &info)
	// SnowLuma adds a build suffix ("1.11.1-node"); the release is what
	// the catalog was made from.
	release, _, _ := strings.Cut(strings.TrimPrefix(info.Data.AppVersion, "v"), "-")
	if release == catalogVersion {
		r.add(Item{Name: "version", Status: OK, Detail: r.say(lang.Text{
			EN: fmt.Sprintf("SnowLuma %s, as the bundled catalog", info.Data.AppVersion),
			ZH: fmt.Sprintf("SnowLuma %s，与内置的动作目录一致", info.Data.AppVersion)})})
		return
	}
	r.add(Item{Name: "version", Status: Warn,
		Detail: r.say(lang.Text{
			EN: fmt.Sprintf("SnowLuma %q, the bundled catalog describes %s: some actions may differ", info.Data.AppVersion, catalogVersion),
			ZH: fmt.Sprintf("SnowLuma 是 %q，内置的动作目录描述的是 %s：部分动作可能不同", info.Data.AppVersion, catalogVersion)}),
		Fix: r.say(lang.Text{EN: "use the SnowLuma release the catalog describes, or a snowluma-mcp whose catalog describes yours",
			ZH: "换用动作目录描述的 SnowLuma 版本，或换用动作目录描述你这个版本的 snowluma-mcp"})})
}

// failure is an item for a probe that got no envelope back, with the fix
// for the person at the terminal: the agent's next step is worded for an
// agent that cannot change the settings, and may point at what a person
// at a terminal does not see (a traceparent), so it is never printed.
// An answer without SnowLuma's envelope and an https:// endpoint at the
// plain-HTTP node are named by what they are, whatever their status.
func (r *Report) failure(name string, err error) Item {
	if status, ok := onebot.ForeignStatus(err); ok {
		return Item{Name: name, Status: Fail,
			Detail: r.say(lang.Text{
				EN: fmt.Sprintf("this port answers, but it is not SnowLuma's HTTP API node: it answered HTTP %d without the OneBot envelope SnowLuma's node answers every request with", status),
				ZH: fmt.Sprintf("这个端口有应答，但它不是 SnowLuma 的 HTTP API 节点：它返回了 HTTP %d，却不是 SnowLuma 的节点对每个请求都会给出的 OneBot 格式响应", status)}),
			Fix: r.say(notSnowLuma)}
	}
	if onebot.PlainHTTP(err) {
		return Item{Name: name, Status: Fail,
			Detail: r.say(lang.Text{EN: onebot.ErrPlainHTTP.Error(),
				ZH: "SNOWLUMA_MCP_ENDPOINT 以 https:// 开头，但这个端口上的服务只会明文 HTTP，SnowLuma 的 HTTP API 节点正是如此（它没有 TLS；https:// 只用于它前面的 TLS 代理）：什么也没有发出"}),
			Fix: r.say(lang.Text{EN: "change the start of SNOWLUMA_MCP_ENDPOINT from https:// to http://" + again.EN,
				ZH: "把 SNOWLUMA_MCP_ENDPOINT 开头的 https:// 改成 http://" + again.ZH})}
	}
	code := fault.CodeOf(err)
	detail := err.Error()
	if zh, ok := happened[code]; ok && r.lang == lang.Chinese {
		detail = zh + "（" + detail + "）"
	}
	return Item{Name: name, Status: Fail, Detail: detail, Fix: r.say(personFix(code))}
}

// happened says in Chinese what each failure a probe can meet means; the
// error's own English words follow it, as SnowLuma's or the network's.
var happened = map[fault.Code]string{
	fault.CodeUpstreamAuth:  "SnowLuma 拒绝了 Token",
	fault.CodeWrongEndpoint: "SNOWLUMA_MCP_ENDPOINT 指向的不是 SnowLuma 的 HTTP API 节点",
	fault.CodeTransport:     "无法连接到 SnowLuma",
	fault.CodeTimeout:       "SnowLuma 没有及时应答",
	fault.CodeBadReply:      "响应不是 OneBot 格式",
	fault.CodeUpstreamHTTP:  "SnowLuma 返回了 HTTP 错误",
}

// again ends every fix: what to do once the setting is changed.
var again = lang.Text{EN: ", then run this check again (and restart the server in the MCP host)",
	ZH: "，然后再运行一次本检查（并在 MCP 宿主里重启本服务器）"}

// Where the HTTP API node's fields are, in both languages.
var (
	httpToken = lang.Text{EN: webui.InWebUI(webui.NodeHTTP, webui.FieldToken), ZH: webui.InWebUIZH(webui.NodeHTTP, webui.FieldToken)}
	httpPort  = lang.Text{EN: webui.InWebUI(webui.NodeHTTP, webui.FieldPort), ZH: webui.InWebUIZH(webui.NodeHTTP, webui.FieldPort)}
)

// tokenFix is the change for a refused SNOWLUMA_MCP_TOKEN; bothTokens
// follows it when events are set too.
var (
	tokenFix = lang.Text{EN: "copy the token of SnowLuma's HTTP server (" + httpToken.EN + ") into SNOWLUMA_MCP_TOKEN in this server's entry in the MCP host",
		ZH: "把 SnowLuma 的 HTTP API 节点的 Token（" + httpToken.ZH + "）复制到 MCP 宿主里本服务器条目的 SNOWLUMA_MCP_TOKEN"}
	bothTokens = lang.Text{EN: " (the WS 服务端 node's Token, if it differs, goes into " + config.EventsTokenVar + ")",
		ZH: "（WS 服务端节点的 Token 如果不同，填到 " + config.EventsTokenVar + "）"}
)

// notSnowLuma is the fix for a port another service holds.
var notSnowLuma = lang.Text{
	EN: "set SNOWLUMA_MCP_ENDPOINT to the port of SnowLuma's HTTP API node (" + httpPort.EN + "; 3000 by default), not another service's; " +
		"if a proxy sits in front of SnowLuma, check that SnowLuma runs behind it" + again.EN,
	ZH: "把 SNOWLUMA_MCP_ENDPOINT 的端口改成 SnowLuma 的 HTTP API 节点的端口（" + httpPort.ZH + "；默认 3000），而不是其他服务的端口；" +
		"如果 SnowLuma 前面有代理，确认代理后面的 SnowLuma 在运行" + again.ZH}

// personFixes are the fixes of the failures a probe can meet, for the
// person who edits the MCP host's entry for this server.
var personFixes = map[fault.Code]lang.Text{
	fault.CodeUpstreamAuth: {EN: tokenFix.EN + again.EN, ZH: tokenFix.ZH + again.ZH},
	fault.CodeWrongEndpoint: {
		EN: "set SNOWLUMA_MCP_ENDPOINT to http://127.0.0.1:<port><path>, the port and path of SnowLuma's HTTP server (" +
			httpPort.EN + ", and its \"" + webui.FieldPath + "\" field)" + again.EN,
		ZH: "把 SNOWLUMA_MCP_ENDPOINT 设为 http://127.0.0.1:<端口><路径>，即 SnowLuma 的 HTTP API 节点的端口和路径（" +
			httpPort.ZH + "，以及它的「" + webui.FieldPath + "」字段）" + again.ZH},
	fault.CodeTransport: {
		EN: "start SnowLuma if it is not running, or set SNOWLUMA_MCP_ENDPOINT to the port of its HTTP server (" + httpPort.EN + ")" + again.EN,
		ZH: "如果 SnowLuma 没有在运行，启动它；否则把 SNOWLUMA_MCP_ENDPOINT 的端口改成它的 HTTP API 节点的端口（" + httpPort.ZH + "）" + again.ZH},
	fault.CodeTimeout: {
		EN: "check that SnowLuma runs and answers at SNOWLUMA_MCP_ENDPOINT (a proxy or firewall in between can hold requests)" + again.EN,
		ZH: "确认 SnowLuma 在运行，并在 SNOWLUMA_MCP_ENDPOINT 上应答（中间的代理或防火墙可能扣住请求）" + again.ZH},
	fault.CodeBadReply: notSnowLuma,
	fault.CodeUpstreamHTTP: {
		EN: "SnowLuma answered with an error: check SnowLuma's own log (its console or WebUI) for what failed, and that SNOWLUMA_MCP_ENDPOINT is its HTTP API node" + again.EN,
		ZH: "SnowLuma 返回了错误：在 SnowLuma 自己的日志（控制台或 WebUI）里看是什么失败了，并确认 SNOWLUMA_MCP_ENDPOINT 是它的 HTTP API 节点" + again.ZH},
}

// personFix is the fix of code for the person at the terminal; a code no
// probe is known to meet gets the check of the endpoint itself, never the
// agent's next step.
func personFix(code fault.Code) lang.Text {
	if fix, ok := personFixes[code]; ok {
		return fix
	}
	return lang.Text{EN: "check that SnowLuma runs and SNOWLUMA_MCP_ENDPOINT is its HTTP API node" + again.EN,
		ZH: "确认 SnowLuma 在运行，且 SNOWLUMA_MCP_ENDPOINT 是它的 HTTP API 节点" + again.ZH}
}

// refused is an item for a probe SnowLuma answered without success.
func (r *Report) refused(name, action string, a answer) Item {
	if a.err != nil {
		return r.failure(name, a.err)
	}
	return Item{Name: name, Status: Fail,
		Detail: r.say(lang.Text{
			EN: fmt.Sprintf("%s answered status %q, retcode %s: %s", action, a.reply.Status, a.reply.Retcode, a.reply.Wording),
			ZH: fmt.Sprintf("%s 返回 status %q、retcode %s：%s", action, a.reply.Status, a.reply.Retcode, a.reply.Wording)}),
		Fix: r.say(lang.Text{EN: "check the account in SnowLuma's WebUI", ZH: "在 SnowLuma 的 WebUI 里检查该账号"})}
}

// skip adds the items that could not be checked, saying why.
func (r *Report) skip(why lang.Text, names ...string) {
	for _, n := range names {
		r.add(Item{Name: n, Status: Skip, Detail: r.say(lang.Text{EN: "not checked: " + why.EN, ZH: "未检查：" + why.ZH})})
	}
}
