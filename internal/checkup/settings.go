package checkup

import (
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/config"
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
	r.folder(cfg, "upload root", upload.RootVar, cfg.UploadRoot, "automatic upload is off", "")
	r.folder(cfg, "download dir", download.DirVar, cfg.DownloadDir, "", "")
	r.folder(cfg, "task dir", config.TaskDirVar, cfg.TaskDir, "no background tasks", tasksNeedTheHost)
	r.folder(cfg, "state dir", config.StateDirVar, cfg.StateDir, "", "")
}

// MeasuredHosts are the hosts whose initialize was captured, with what
// each declared (the table in docs/platforms.md): none declares the tasks
// extension, so a task folder alone does not give background transfers.
const MeasuredHosts = "Claude Code 2.1.332, Gemini CLI 0.61.0 and Codex 0.171.0"

// tasksNeedTheHost follows a usable task folder: what else background
// transfers need, which no setting gives. Without it the folder's "ok"
// read as if transfers would run in the background in any host.
const tasksNeedTheHost = "background transfers also need a host that declares the tasks extension (on 2026-07-28 requests), and none of the hosts measured does (" +
	MeasuredHosts + "; see docs/platforms.md): there, transfers run in the foreground through invoke_action"

// folder is the item of one folder: none when a finding named it, skip
// when it is not set (unset says what that leaves off), ok otherwise,
// followed by note when there is one.
func (r *Report) folder(cfg *config.Config, name, variable, path, unset, note string) {
	for _, f := range cfg.Findings {
		if f.Var == variable {
			return
		}
	}
	if path == "" {
		r.add(Item{Name: name, Status: Skip, Detail: variable + " is not set: " + unset})
		return
	}
	detail := path
	if note != "" {
		detail += "; " + note
	}
	r.add(Item{Name: name, Status: OK, Detail: detail})
}

// settings reports how send pacing and lockdown will apply.
func (r *Report) settings(cfg *config.Config) {
	if cfg.WriteEnabled() {
		p := cfg.SendPace
		if p.Off {
			r.add(Item{Name: "send pace", Status: Warn, Detail: "off: an agent may send as fast as SnowLuma accepts",
				Fix: "unset SNOWLUMA_MCP_SEND_PACE unless you need it off: QQ's risk control may restrict an account that sends too fast"})
		} else {
			r.add(Item{Name: "send pace", Status: OK, Detail: fmt.Sprintf("each chat: %s; the account: %s; a send waits at most %s",
				budget(p.Target), budget(p.Account), p.Wait)})
		}
	}
	if !cfg.ExecutionEnabled() {
		return // docs mode shows no one's words
	}
	if n := len(cfg.TrustedUsers); n > 0 {
		r.add(Item{Name: "lockdown", Status: OK, Detail: fmt.Sprintf("on: only the logged-in account's and %d trusted user(s)' words reach the agent", n)})
	} else {
		r.add(Item{Name: "lockdown", Status: OK, Detail: "off: everyone's messages reach the agent (set " + config.TrustedUsersVar + " to withhold them)"})
	}
}

func budget(b config.Budget) string {
	return fmt.Sprintf("%d at once, then one every %s", b.Burst, b.Every)
}
