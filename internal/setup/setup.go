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

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
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
			Detail: broken.Error() + "; the server serves only the documentation tools and explains the problem",
			Fix:    "correct " + broken.Var + " in this server's entry in the MCP host (its env block), then restart the server",
			Agent:  "Tell the user to correct " + broken.Var + " in this server's entry in the MCP client configuration and restart it."})
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
			out = append(out, config.Finding{Item: "configuration", Effect: config.Noted, Detail: w,
				Fix: "set what it needs, named above, or remove the setting"})
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
		Agent: "Tell the user that " + s.Name + " is not a setting of this server and is ignored."}
	if s.Closest != "" {
		f.Effect = config.Off
		f.Detail += "; what " + s.Closest + " sets is therefore off"
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
		f := off(cfg, p.Var, p.Error(), "correct "+p.Var+" in this server's entry in the MCP host, then restart the server")
		out = append(out, f)
	}
	return out
}

// off is the finding of an optional service that cannot be used: off in
// a mode that uses it, only noted in one that does not.
func off(cfg *config.Config, variable, detail, fix string) config.Finding {
	f := config.Finding{Item: items[variable], Var: variable, Effect: config.Off,
		Detail: detail + "; the server turns " + services[variable] + " off, everything else works", Fix: fix,
		Agent: "Turned off, everything else works: " + services[variable] + ". Why: " + detail + ". Tell the user to " + fix + "."}
	if !uses(cfg, variable) {
		f.Effect, f.Detail, f.Agent = config.Noted, detail+" (this mode does not use it)", ""
	}
	return f
}

// fellBack is a mode that needs an endpoint set without one.
func fellBack(cfg *config.Config) []config.Finding {
	if cfg.FellBack == "" {
		return nil
	}
	return []config.Finding{{Item: "configuration", Var: config.EndpointVar, Effect: config.Fallback,
		Detail: fmt.Sprintf("%s=%s needs %s, which is not set: the server serves docs mode", config.ModeVar, cfg.FellBack, config.EndpointVar),
		Fix: "set " + config.EndpointVar + " to SnowLuma's HTTP server, http://127.0.0.1:<port><path> (the port and path are in " +
			onebot.InWebUI(onebot.NodeHTTP, onebot.FieldPort) + " and its \"" + onebot.FieldPath + "\" field), then restart the server",
		Agent: fmt.Sprintf("The user set %s=%s, but %s is not set, so only the documentation tools are served. Tell the user to set %s to SnowLuma's HTTP API address and restart the server.",
			config.ModeVar, cfg.FellBack, config.EndpointVar, config.EndpointVar)}}
}
