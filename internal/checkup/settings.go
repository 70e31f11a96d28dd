package checkup

import (
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
)

// directories checks the directories write mode uses, creating none: the
// upload root must exist, while the download and task directories need
// only be creatable (the server makes them when it needs them).
func (r *Report) directories(cfg *config.Config) {
	if !cfg.WriteEnabled() {
		return
	}
	if cfg.UploadRoot == "" {
		r.add(Item{Name: "upload root", Status: Skip, Detail: upload.RootVar + " is not set: automatic upload is off"})
	} else if why := upload.RootProblem(cfg.UploadRoot); why != "" {
		r.add(Item{Name: "upload root", Status: Fail, Detail: upload.RootVar + " " + why,
			Fix: "create the directory, or set " + upload.RootVar + " to an existing one"})
	} else {
		r.add(Item{Name: "upload root", Status: OK, Detail: cfg.UploadRoot})
	}
	r.dir("download dir", download.DirVar, cfg.DownloadDir)
	if cfg.TaskDir == "" {
		r.add(Item{Name: "task dir", Status: Skip, Detail: "SNOWLUMA_MCP_TASK_DIR is not set: no background tasks"})
		return
	}
	r.dir("task dir", "SNOWLUMA_MCP_TASK_DIR", cfg.TaskDir)
}

// dir reports a directory the server creates when needed.
func (r *Report) dir(name, variable, path string) {
	if why := download.DirProblem(path); why != "" {
		r.add(Item{Name: name, Status: Fail, Detail: variable + " " + why, Fix: "set " + variable + " to a directory this user may create and write"})
		return
	}
	r.add(Item{Name: name, Status: OK, Detail: path})
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
