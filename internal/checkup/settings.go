package checkup

import (
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
)

// directories reports the folders write mode uses that setup.Decide found
// nothing wrong with (its findings are items already): each as it is, or
// as not set.
func (r *Report) directories(cfg *config.Config) {
	if !cfg.WriteEnabled() {
		return
	}
	r.folder(cfg, "upload root", upload.RootVar, cfg.UploadRoot, lang.Text{EN: "automatic upload is off", ZH: "自动上传关闭"}, lang.Text{})
	r.folder(cfg, "download dir", download.DirVar, cfg.DownloadDir, lang.Text{}, lang.Text{})
	r.folder(cfg, "task dir", config.TaskDirVar, cfg.TaskDir, lang.Text{EN: "no background tasks", ZH: "没有后台传输"}, tasksNeedTheHost)
	r.folder(cfg, "state dir", config.StateDirVar, cfg.StateDir, lang.Text{}, lang.Text{})
}

// MeasuredHosts are the hosts whose initialize was captured, with what
// each declared (the table in docs/platforms.md): none declares the tasks
// extension, so a task folder alone does not give background transfers.
const MeasuredHosts = "Claude Code 2.1.332, Gemini CLI 0.61.0 and Codex 0.171.0"

// tasksNeedTheHost follows a usable task folder: what else background
// transfers need, which no setting gives. Without it the folder's "ok"
// read as if transfers would run in the background in any host.
var tasksNeedTheHost = lang.Text{
	EN: "background transfers also need a host that declares the tasks extension (on 2026-07-28 requests), and none of the hosts measured does (" +
		MeasuredHosts + "; see docs/platforms.md): there, transfers run in the foreground through invoke_action",
	ZH: "后台传输还需要宿主声明 tasks 扩展（在 2026-07-28 版协议的请求上），而实测的宿主都没有声明（" +
		MeasuredHosts + "；见 docs/zh-CN/platforms.md）：在这些宿主里，传输经 invoke_action 在前台进行"}

// folder is the item of one folder: none when a finding named it, skip
// when it is not set (unset says what that leaves off), ok otherwise,
// followed by note when there is one.
func (r *Report) folder(cfg *config.Config, name, variable, path string, unset, note lang.Text) {
	for _, f := range cfg.Findings {
		if f.Var == variable {
			return
		}
	}
	if path == "" {
		r.add(Item{Name: name, Status: Skip, Detail: r.say(lang.Text{EN: variable + " is not set: " + unset.EN, ZH: "没有设置 " + variable + "：" + unset.ZH})})
		return
	}
	detail := path
	if note.EN != "" {
		detail += r.say(lang.Text{EN: "; " + note.EN, ZH: "；" + note.ZH})
	}
	r.add(Item{Name: name, Status: OK, Detail: detail})
}

// settings reports how send pacing and lockdown will apply.
func (r *Report) settings(cfg *config.Config) {
	if cfg.WriteEnabled() {
		p := cfg.SendPace
		if p.Off {
			r.add(Item{Name: "send pace", Status: Warn,
				Detail: r.say(lang.Text{EN: "off: an agent may send as fast as SnowLuma accepts", ZH: "已关闭：智能体可以按 SnowLuma 接受的最快速度发送"}),
				Fix: r.say(lang.Text{EN: "unset SNOWLUMA_MCP_SEND_PACE unless you need it off: QQ's risk control may restrict an account that sends too fast",
					ZH: "除非确实需要关闭，否则删掉 SNOWLUMA_MCP_SEND_PACE：发得太快的账号可能被 QQ 风控限制"})})
		} else {
			r.add(Item{Name: "send pace", Status: OK, Detail: r.say(lang.Text{
				EN: fmt.Sprintf("each chat: %s; the account: %s; a send waits at most %s", budget(p.Target).EN, budget(p.Account).EN, p.Wait),
				ZH: fmt.Sprintf("每个目标：%s；整个账号：%s；一次发送最多等 %s", budget(p.Target).ZH, budget(p.Account).ZH, p.Wait)})})
		}
	}
	if !cfg.ExecutionEnabled() {
		return // docs mode shows no one's words
	}
	if n := len(cfg.TrustedUsers); n > 0 {
		r.add(Item{Name: "lockdown", Status: OK, Detail: r.say(lang.Text{
			EN: fmt.Sprintf("on: only the logged-in account's and %d trusted user(s)' words reach the agent", n),
			ZH: fmt.Sprintf("已开启：只有已登录账号和受信任名单上 %d 位用户的文字会交给智能体", n)})})
	} else {
		r.add(Item{Name: "lockdown", Status: OK, Detail: r.say(lang.Text{
			EN: "off: everyone's messages reach the agent (set " + config.TrustedUsersVar + " to withhold them)",
			ZH: "未开启：所有人的消息都会交给智能体（设置 " + config.TrustedUsersVar + " 可以隐去它们）"})})
	}
}

func budget(b config.Budget) lang.Text {
	return lang.Text{EN: fmt.Sprintf("%d at once, then one every %s", b.Burst, b.Every),
		ZH: fmt.Sprintf("一次最多 %d 条，之后每 %s 一条", b.Burst, b.Every)}
}
