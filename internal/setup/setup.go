// Package setup is the one reading of the settings: everything the server
// verifies before it serves (mode, endpoint, token, events URL, upload
// root, download folder, task folder and its binding, state directory,
// trusted users, misspelt variable names) is decided here, and both the
// server's start and `snowluma-mcp check` call Decide. They used to read
// the settings in two places and disagree: `check` passed settings the
// server then refused. Now a finding's Effect is what the server does,
// and `check` fails exactly when the server would run with less than the
// user set.
//
// No setting stops the server. A malformed mode, endpoint, token or limit
// puts it in its explaining state; a malformed or unusable optional
// service (events, uploads, downloads, background tasks, sends) turns off
// that service only, with the explanation; a folder the server can make
// private safely, it makes private (only when told to fix: `check`
// changes nothing).
package setup

import (
	"errors"
	"fmt"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// Env is what the settings are read from.
type Env struct {
	Getenv func(string) string
	// Environ is the whole environment ("NAME=value"), searched for
	// variables named like settings that the server does not read.
	Environ []string
}

// Decide reads the settings and checks every folder they name. fix says
// the caller is the server, which makes a fixable folder private; `check`
// passes false and is told the server will. The configuration returned
// carries the findings and is the one the server runs with: a service a
// finding turns off is off in it.
func Decide(env Env, fix bool) *config.Config {
	var out []config.Finding
	strays := config.Strays(env.Environ)
	for _, s := range strays {
		out = append(out, stray(s))
	}
	cfg, warnings, err := config.Load(env.Getenv)
	var broken *config.Problem
	if errors.As(err, &broken) {
		cfg = config.Explaining(broken)
		out = append(out, config.Finding{Item: "configuration", Var: broken.Var, Effect: config.Explain,
			Detail:   broken.Error() + "; the server serves only the documentation tools and explains the problem",
			Fix:      "correct " + broken.Var + " in this server's entry in the MCP host (its env block), then restart the server",
			Agent:    "Tell the user to correct " + broken.Var + " in this server's entry in the MCP client configuration and restart it.",
			DetailZH: broken.Var + " 的值不被接受，服务器只提供文档工具，并说明问题所在。原因：" + broken.WhyIn(lang.Chinese),
			FixZH:    "在 MCP 宿主里本服务器的条目（env 部分）中改正 " + broken.Var + "，然后重启服务器"})
		warnings = nil
	} else if err != nil {
		// Load refuses only with a Problem; anything else is a bug, and
		// is explained the same way rather than stopping the server.
		broken = &config.Problem{Var: "configuration", Why: err.Error()}
		cfg = config.Explaining(broken)
	}
	cfg.Strays = strays
	if broken == nil {
		out = append(out, disabled(cfg)...)
		out = append(out, fellBack(cfg)...)
		for _, w := range warnings {
			out = append(out, config.Finding{Item: "configuration", Effect: config.Noted, Detail: w.EN, DetailZH: w.ZH,
				Fix: "set what it needs, named above, or remove the setting", FixZH: "按上面所说补上它需要的设置，或删掉这项设置"})
		}
		out = append(out, folders(cfg, fix)...)
	}
	cfg.Findings = out
	return cfg
}

// stray is a variable the server does not read. One close to a known name
// leaves what it meant off: the server runs with less than the user set.
func stray(s config.Stray) config.Finding {
	f := config.Finding{Item: config.StrayItem, Var: s.Name, Effect: config.Noted, Detail: s.Ignored(), Fix: s.Fix,
		Agent:    "Tell the user that " + s.Name + " is not a setting of this server and is ignored.",
		DetailZH: s.Name + " 不是本服务器读取的变量，因此被忽略",
		FixZH:    "没有哪个变量的拼写和它接近（docs/zh-CN/configuration.md 的配置表列出了全部变量）；删掉它或改正它的名字。更新版本的 snowluma-mcp 也许会读取它"}
	if s.Closest != "" {
		f.Effect = config.Off
		f.Detail += "; what " + s.Closest + " sets is therefore off"
		f.DetailZH += "；因此 " + s.Closest + " 所设置的功能处于关闭状态"
		f.FixZH = "你是不是想写 " + s.Closest + "？在 MCP 宿主里本服务器的条目中把它改成这个名字（变量名区分大小写，要全部大写）"
		if !strings.HasPrefix(s.Fix, "did you mean") {
			// A feature named by another word (SNOWLUMA_MCP_LOCKDOWN).
			f.FixZH = s.Closest + " 才是打开这项功能的变量；改设它"
		}
		f.Agent = "Tell the user that " + s.Name + " is ignored (likely meant " + s.Closest + ", whose feature is therefore off): correct its name in this server's entry in the MCP client configuration and restart it."
	}
	return f
}

// items are the names of `check`'s lines for the optional services.
var items = map[string]string{
	config.EventsVar:      "events",
	config.EventsTokenVar: "events",
	upload.RootVar:        "upload root",
	download.DirVar:       "download dir",
	config.TaskDirVar:     "task dir",
	config.StateDirVar:    "state dir",
}

// services say what each optional service is, for the words of a finding.
var services = map[string]string{
	config.EventsVar:      "live events",
	config.EventsTokenVar: "live events",
	upload.RootVar:        "automatic upload",
	download.DirVar:       "downloads",
	config.TaskDirVar:     "background tasks",
	config.StateDirVar:    "sending (the send budgets live in the state directory)",
}

// servicesZH are services in Chinese.
var servicesZH = map[string]string{
	config.EventsVar:   "实时事件",
	upload.RootVar:     "自动上传",
	download.DirVar:    "下载",
	config.TaskDirVar:  "后台传输",
	config.StateDirVar: "发送（发送额度保存在状态目录里）",
}

// uses reports whether the effective mode uses the service of variable.
func uses(cfg *config.Config, variable string) bool {
	if variable == config.EventsVar || variable == config.EventsTokenVar {
		return cfg.ExecutionEnabled()
	}
	return cfg.WriteEnabled()
}

// disabled are the malformed settings of optional services.
func disabled(cfg *config.Config) []config.Finding {
	var out []config.Finding
	for _, p := range cfg.Disabled {
		fix := lang.Text{EN: "correct " + p.Var + " in this server's entry in the MCP host, then restart the server",
			ZH: "在 MCP 宿主里本服务器的条目中改正 " + p.Var + "，然后重启服务器"}
		if need, ok := folderNeeds[p.Var]; ok {
			// The one folder refusal is a path that is not absolute
			// (~ included: nothing expands it); the fix says all the
			// folder needs, so that the next run does not fail on the
			// folder being missing.
			fix = lang.Text{EN: "write " + p.Var + " as an absolute path in this server's entry in the MCP host (the home folder written out: ~ is not expanded); " + need.EN + "; then restart the server",
				ZH: "在 MCP 宿主里本服务器的条目中把 " + p.Var + " 写成绝对路径（把主目录完整写出来：~ 不会被展开）；" + need.ZH + "；然后重启服务器"}
		}
		f := off(cfg, p.Var, lang.Text{EN: p.Error(), ZH: p.WhyIn(lang.Chinese)}, fix)
		f.DetailZH = p.Var + " 的值不被接受，服务器关闭了" + servicesZH[p.Var] + "，其余功能正常。原因：" + p.WhyIn(lang.Chinese)
		if !uses(cfg, p.Var) {
			f.DetailZH = p.Var + " 的值不被接受（当前模式用不到它）。原因：" + p.WhyIn(lang.Chinese)
		}
		out = append(out, f)
	}
	return out
}

// off is the finding of an optional service that cannot be used: off in
// a mode that uses it, only noted in one that does not. detail is the
// cause (from the folder's or the store's own check) in both languages
// where it is written in both; a store's own English (a task record, a
// lock) stays English after a Chinese summary (english).
func off(cfg *config.Config, variable string, detail, fix lang.Text) config.Finding {
	why := detail.In(lang.Chinese)
	f := config.Finding{Item: items[variable], Var: variable, Effect: config.Off,
		Detail: detail.EN + "; the server turns " + services[variable] + " off, everything else works", Fix: fix.EN,
		Agent:    "Turned off, everything else works: " + services[variable] + ". Why: " + detail.EN + ". Tell the user to " + fix.EN + ".",
		DetailZH: "服务器关闭了" + servicesZH[variable] + "，其余功能正常。原因：" + why, FixZH: fix.ZH}
	if !uses(cfg, variable) {
		f.Effect, f.Detail, f.Agent = config.Noted, detail.EN+" (this mode does not use it)", ""
		f.DetailZH = "当前模式用不到它。原因：" + why
	}
	return f
}

// english is a cause only English words exist for (a store's own
// message, the operating system's), after a Chinese summary.
func english(summary, cause string) lang.Text {
	return lang.Text{EN: cause, ZH: summary + cause}
}

// folderNeeds is what each folder needs besides an absolute path: the
// upload root must exist (nothing creates it), the others are created
// when missing.
var folderNeeds = map[string]lang.Text{
	upload.RootVar: {EN: "the folder must also exist: create it if it does not (the server never creates the upload root)",
		ZH: "这个文件夹还必须已经存在：不存在就先创建它（服务器从不创建上传根目录）"},
	download.DirVar:    {EN: "the server creates the folder if it is missing", ZH: "文件夹不存在时服务器会创建它"},
	config.TaskDirVar:  {EN: "the server creates the folder if it is missing", ZH: "文件夹不存在时服务器会创建它"},
	config.StateDirVar: {EN: "the server creates the folder if it is missing", ZH: "文件夹不存在时服务器会创建它"},
}

// fellBack is a mode that needs an endpoint set without one.
func fellBack(cfg *config.Config) []config.Finding {
	if cfg.FellBack == "" {
		return nil
	}
	return []config.Finding{{Item: "configuration", Var: config.EndpointVar, Effect: config.Fallback,
		Detail: fmt.Sprintf("%s=%s needs %s, which is not set: the server serves docs mode", config.ModeVar, cfg.FellBack, config.EndpointVar),
		Fix: "set " + config.EndpointVar + " to SnowLuma's HTTP server, http://127.0.0.1:<port><path> (the port and path are in " +
			webui.InWebUI(webui.NodeHTTP, webui.FieldPort) + " and its \"" + webui.FieldPath + "\" field), then restart the server",
		Agent: fmt.Sprintf("The user set %s=%s, but %s is not set, so only the documentation tools are served. Tell the user to set %s to SnowLuma's HTTP API address and restart the server.",
			config.ModeVar, cfg.FellBack, config.EndpointVar, config.EndpointVar),
		DetailZH: fmt.Sprintf("%s=%s 需要 %s，但它没有设置：服务器以 docs 模式运行", config.ModeVar, cfg.FellBack, config.EndpointVar),
		FixZH: "把 " + config.EndpointVar + " 设为 SnowLuma 的 HTTP API 节点，http://127.0.0.1:<端口><路径>（端口和路径见 " +
			webui.InWebUIZH(webui.NodeHTTP, webui.FieldPort) + "和它的「" + webui.FieldPath + "」字段），然后重启服务器"}}
}
