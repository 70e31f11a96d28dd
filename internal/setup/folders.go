package setup

import (
	"errors"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/access"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// The purposes the stores refuse an exposed folder with; the words are
// theirs (task results, send budgets).
var (
	tasksPurpose  = access.Purpose{Why: "task results can hold private data", WhyZH: "任务结果可能含有私密数据", Setting: config.TaskDirVar}
	budgetPurpose = access.Purpose{Why: "whoever can write the send budgets there can unpace this account's sends or stop them",
		WhyZH: "能改写其中发送额度的人，就能让这个账号的发送不再限速，或者让它发不出去", Setting: config.StateDirVar}
)

// folders checks the folders write mode uses. The upload root and the
// download folder are checked again at every call, so their fix takes
// effect on the next call; the task folder and the state directory are
// the stores' and are made private here when they can be.
func folders(cfg *config.Config, fix bool) []config.Finding {
	if !cfg.WriteEnabled() {
		return nil
	}
	var out []config.Finding
	if cfg.UploadRoot != "" {
		if why := upload.RootWhy(cfg.UploadRoot); why.EN != "" {
			out = append(out, off(cfg, upload.RootVar, lang.Text{EN: upload.RootVar + " " + why.EN, ZH: upload.RootVar + " " + why.ZH}, lang.Text{
				EN: "create that folder, or set " + upload.RootVar + " to an existing one; it is checked again at every call, so the next upload uses it without a restart",
				ZH: "创建这个文件夹，或把 " + upload.RootVar + " 设为一个已存在的文件夹；每次调用都会重新检查它，所以下一次上传无需重启就会用上"}))
		}
	}
	if cfg.DownloadDir != "" {
		if why := download.DirWhy(cfg.DownloadDir); why.EN != "" {
			out = append(out, off(cfg, download.DirVar, lang.Text{EN: download.DirVar + " " + why.EN, ZH: download.DirVar + " " + why.ZH}, lang.Text{
				EN: "set " + download.DirVar + " to a folder this account may create and write; it is checked again at every call, so the next download uses it without a restart",
				ZH: "把 " + download.DirVar + " 设为这个系统用户能创建和写入的文件夹；每次调用都会重新检查它，所以下一次下载无需重启就会用上"}))
		}
	}
	if cfg.TaskDir != "" {
		if f, bad := store(cfg, config.TaskDirVar, cfg.TaskDir, tasksPurpose, fix); bad {
			out = append(out, f)
			cfg.TaskDir = ""
		} else if f.Item != "" {
			out = append(out, f)
		}
		// The server's store checks the binding as it opens (StoreFailed
		// words a refusal the same way); only check, which opens no
		// store, reads it here, so a start pays for the slow digest once.
		if cfg.TaskDir != "" && !fix {
			if err := task.Bound(cfg.TaskDir, TaskScope(cfg)); errors.Is(err, task.ErrScope) {
				out = append(out, off(cfg, config.TaskDirVar, english("这个任务目录绑定的是另一套配置（模式、HTTP API 地址或 Token）：", err.Error()), lang.Text{
					EN: "set " + config.TaskDirVar + " to a new folder for this configuration (keep the old one for its history), then restart the server",
					ZH: "为这套配置把 " + config.TaskDirVar + " 设为一个新文件夹（旧的留着作记录），然后重启服务器"}))
				cfg.TaskDir = ""
			} else if err != nil {
				// Its scope is missing or damaged: the message says
				// what to restore, as the server's refusal does.
				out = append(out, off(cfg, config.TaskDirVar, english("无法读取这个任务目录的绑定记录：", err.Error()), lang.Text{
					EN: "do what the message says, then restart the server", ZH: "按上面的消息处理，然后重启服务器"}))
				cfg.TaskDir = ""
			} else if err := task.Inspect(cfg.TaskDir); err != nil {
				// What the server's store refuses as it opens, read
				// without changing anything.
				out = append(out, off(cfg, config.TaskDirVar, english("任务目录里有无法使用的文件：", err.Error()), lang.Text{
					EN: "restore or move aside the file named above, then restart the server", ZH: "恢复或移走上面提到的文件，然后重启服务器"}))
				cfg.TaskDir = ""
			}
		}
	}
	if cfg.StateDir != "" {
		f, bad := store(cfg, config.StateDirVar, cfg.StateDir, budgetPurpose, fix)
		if bad || f.Item != "" {
			out = append(out, f)
		}
		if !bad {
			// A damaged lock fails every send of its account until it
			// is moved aside; the state directory is checked again at
			// every send, so the fix takes effect on the next one.
			if err := budget.Locks(cfg.StateDir); err != nil {
				out = append(out, off(cfg, config.StateDirVar, english("状态目录里有损坏的锁文件：", config.StateDirVar+": "+err.Error()),
					lang.Text{EN: "move that file out of " + cfg.StateDir + " (no snowluma-mcp server makes anything but a regular file there); the next send uses the directory again",
						ZH: "把那个文件移出 " + cfg.StateDir + "（snowluma-mcp 在那里只会创建普通文件）；下一次发送就会重新使用这个目录"}))
			}
			// A state no clock now could have written, or one that is
			// damaged, is moved aside at the first send and its
			// account's budgets start again as spent: worth knowing,
			// not less than was set.
			for _, why := range budget.Untrusted(cfg.StateDir, cfg.SendPace, time.Now()) {
				out = append(out, config.Finding{Item: items[config.StateDirVar], Var: config.StateDirVar, Effect: config.Noted,
					Detail:   why + "; the first send moves it aside and starts that account's budgets again as spent (one refill interval of waiting)",
					Fix:      "nothing to do; if the clock was set back, that explains it",
					DetailZH: "第一次发送时会把它移到一边，并把该账号的发送额度当作已用完重新开始（要等一个补充间隔）。原因：" + why,
					FixZH:    "不用处理；如果系统时钟被往回调过，这就是原因"})
			}
		}
	}
	return out
}

// store judges a store's folder: missing (the store creates it private,
// if it can), private, exposed but fixable (made private now when fix,
// else noted as what the server will do), or unusable (bad).
func store(cfg *config.Config, variable, dir string, p access.Purpose, fix bool) (f config.Finding, bad bool) {
	restart := lang.Text{EN: ", then restart the server", ZH: "，然后重启服务器"}
	got, err := p.Look(dir)
	switch {
	case err != nil:
		return off(cfg, variable, english(variable+" 无法作为文件夹使用：", variable+": "+err.Error()), lang.Text{
			EN: "set " + variable + " to a folder (not a file or a link) this account may create" + restart.EN,
			ZH: "把 " + variable + " 设为这个系统用户能创建的文件夹（不能是文件或链接）" + restart.ZH}), true
	case got.Missing:
		if why := download.DirWhy(dir); why.EN != "" {
			return off(cfg, variable, lang.Text{EN: variable + " " + why.EN, ZH: variable + " " + why.ZH}, lang.Text{
				EN: "set " + variable + " to a folder this account may create" + restart.EN,
				ZH: "把 " + variable + " 设为这个系统用户能创建的文件夹" + restart.ZH}), true
		}
		return config.Finding{}, false
	case got.Exposed == "":
		return config.Finding{}, false
	case !got.Fixable:
		return off(cfg, variable, lang.Text{EN: got.Exposed, ZH: got.ExposedZH}, lang.Text{EN: got.Fix + restart.EN, ZH: got.FixZH + restart.ZH}), true
	case !fix:
		return config.Finding{Item: items[variable], Var: variable, Effect: config.Noted,
			Detail:   got.Exposed + "; it is empty and yours, so the server makes it private when it starts",
			Fix:      "nothing to do; or make it private yourself first",
			DetailZH: "它是空的、属于你，服务器启动时会把它设为只有你能访问。原因：" + got.ExposedZH,
			FixZH:    "不用处理；也可以先自己把它设为私有"}, false
	}
	if _, err := p.Secure(dir); err != nil {
		return off(cfg, variable, english(dir+" 无法设为私有：", err.Error()), lang.Text{
			EN: "make " + dir + " private to your account" + restart.EN,
			ZH: "把 " + dir + " 设为只有你的系统用户能访问" + restart.ZH}), true
	}
	return config.Finding{Item: items[variable], Var: variable, Effect: config.Fixed,
		Detail: variable + " " + dir + " was open to other accounts and empty, so the server made it private to this account",
		Agent:  variable + " named a folder open to other accounts; it was empty, so the server made it private, and it is in use."}, false
}

// StoreFailed is the finding of a task store that the server could not
// open although its folder passed Decide (a stray file in it, a damaged
// record): background tasks are off, everything else works.
func StoreFailed(cfg *config.Config, err error) config.Finding {
	cfg.TaskDir = ""
	return off(cfg, config.TaskDirVar, english(config.TaskDirVar+" 中的任务存储无法打开：", "the task store in "+config.TaskDirVar+" cannot be opened: "+err.Error()), lang.Text{
		EN: "do what the message says, or set " + config.TaskDirVar + " to a new folder, then restart the server",
		ZH: "按消息处理，或把 " + config.TaskDirVar + " 设为一个新文件夹，然后重启服务器"})
}

// TaskScope is what a task directory is bound to, for the server's store
// and `check` alike: the mode, the endpoint and the HTTP node's token,
// which decide what its tasks may do and to whom. The events token is not
// part of it: events never touch tasks, and setting it (or giving the WS
// node a new Token) must not turn background transfers off.
func TaskScope(cfg *config.Config) task.Scope {
	return task.Scope{Mode: string(cfg.Mode), Endpoint: cfg.Endpoint.String(), Token: cfg.Token}
}
