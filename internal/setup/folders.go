package setup

import (
	"errors"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/access"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// The purposes the stores refuse an exposed folder with; the words are
// theirs (task results, send budgets).
var (
	tasksPurpose  = access.Purpose{Why: "task results can hold private data", Setting: config.TaskDirVar}
	budgetPurpose = access.Purpose{Why: "whoever can write the send budgets there can unpace this account's sends or stop them", Setting: config.StateDirVar}
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
		if why := upload.RootProblem(cfg.UploadRoot); why != "" {
			out = append(out, off(cfg, upload.RootVar, upload.RootVar+" "+why,
				"create that folder, or set "+upload.RootVar+" to an existing one; it is checked again at every call, so the next upload uses it without a restart"))
		}
	}
	if cfg.DownloadDir != "" {
		if why := download.DirProblem(cfg.DownloadDir); why != "" {
			out = append(out, off(cfg, download.DirVar, download.DirVar+" "+why,
				"set "+download.DirVar+" to a folder this account may create and write; it is checked again at every call, so the next download uses it without a restart"))
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
				out = append(out, off(cfg, config.TaskDirVar, err.Error(),
					"set "+config.TaskDirVar+" to a new folder for this configuration (keep the old one for its history), then restart the server"))
				cfg.TaskDir = ""
			} else if err != nil {
				// Its scope is missing or damaged: the message says
				// what to restore, as the server's refusal does.
				out = append(out, off(cfg, config.TaskDirVar, err.Error(),
					"do what the message says, then restart the server"))
				cfg.TaskDir = ""
			} else if err := task.Inspect(cfg.TaskDir); err != nil {
				// What the server's store refuses as it opens, read
				// without changing anything.
				out = append(out, off(cfg, config.TaskDirVar, err.Error(),
					"restore or move aside the file named above, then restart the server"))
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
				out = append(out, off(cfg, config.StateDirVar, config.StateDirVar+": "+err.Error(),
					"move that file out of "+cfg.StateDir+" (no snowluma-mcp server makes anything but a regular file there); the next send uses the directory again"))
			}
			// A state no clock now could have written, or one that is
			// damaged, is moved aside at the first send and its
			// account's budgets start again as spent: worth knowing,
			// not less than was set.
			for _, why := range budget.Untrusted(cfg.StateDir, cfg.SendPace, time.Now()) {
				out = append(out, config.Finding{Item: items[config.StateDirVar], Var: config.StateDirVar, Effect: config.Noted,
					Detail: why + "; the first send moves it aside and starts that account's budgets again as spent (one refill interval of waiting)",
					Fix:    "nothing to do; if the clock was set back, that explains it"})
			}
		}
	}
	return out
}

// store judges a store's folder: missing (the store creates it private,
// if it can), private, exposed but fixable (made private now when fix,
// else noted as what the server will do), or unusable (bad).
func store(cfg *config.Config, variable, dir string, p access.Purpose, fix bool) (f config.Finding, bad bool) {
	restart := ", then restart the server"
	got, err := p.Look(dir)
	switch {
	case err != nil:
		return off(cfg, variable, variable+": "+err.Error(), "set "+variable+" to a folder (not a file or a link) this account may create"+restart), true
	case got.Missing:
		if why := download.DirProblem(dir); why != "" {
			return off(cfg, variable, variable+" "+why, "set "+variable+" to a folder this account may create"+restart), true
		}
		return config.Finding{}, false
	case got.Exposed == "":
		return config.Finding{}, false
	case !got.Fixable:
		return off(cfg, variable, got.Exposed, got.Fix+restart), true
	case !fix:
		return config.Finding{Item: items[variable], Var: variable, Effect: config.Noted,
			Detail: got.Exposed + "; it is empty and yours, so the server makes it private when it starts",
			Fix:    "nothing to do; or make it private yourself first"}, false
	}
	if _, err := p.Secure(dir); err != nil {
		return off(cfg, variable, err.Error(), "make "+dir+" private to your account"+restart), true
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
	return off(cfg, config.TaskDirVar, "the task store in "+config.TaskDirVar+" cannot be opened: "+err.Error(),
		"do what the message says, or set "+config.TaskDirVar+" to a new folder, then restart the server")
}

// TaskScope is what a task directory is bound to, for the server's store
// and `check` alike: the mode, the endpoint and the HTTP node's token,
// which decide what its tasks may do and to whom. The events token is not
// part of it: events never touch tasks, and setting it (or giving the WS
// node a new Token) must not turn background transfers off.
func TaskScope(cfg *config.Config) task.Scope {
	return task.Scope{Mode: string(cfg.Mode), Endpoint: cfg.Endpoint.String(), Token: cfg.Token}
}
