// Package checkup is `snowluma-mcp check`: from a terminal, with the
// environment a host would give the server, it tries everything the server
// will need in its configured mode and reports each item on one line, with
// what to change when it fails. A host shows a server that cannot start or
// connect only as "failed to connect", so this is where a person sees why.
//
// It changes nothing: it runs only read actions, opens no task store (no
// lease, no recovery, no sweep, no stream reset), spends no send budget and
// creates no file or directory. Nothing it prints carries the token or a
// URL's query or credentials.
package checkup

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

// Status is how one item came out.
type Status string

// The statuses. Only Fail makes the check fail: Warn is worth knowing but
// does not stop the configured mode from working, and Skip is an item the
// configuration leaves out.
const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
	Skip Status = "skip"
)

// Item is one line of the report.
type Item struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	// Detail says what was found.
	Detail string `json:"detail"`
	// Fix says what to change; only when the item is not OK.
	Fix string `json:"fix,omitempty"`
}

// Report is the whole check.
type Report struct {
	// OK is true when everything the configured mode needs works.
	OK   bool   `json:"ok"`
	Mode string `json:"mode,omitempty"`
	// Malformed names the variable whose value was refused; then nothing
	// else was checked.
	Malformed string `json:"malformed,omitempty"`
	Items     []Item `json:"items"`
}

// Deps are what a check runs with: the environment and the bundled catalog.
type Deps struct {
	Getenv func(string) string
	// Environ is the whole environment ("NAME=value", as os.Environ gives
	// it), searched for variables named like settings that are not.
	Environ []string
	Catalog *catalog.Catalog
}

// maxWait bounds each probe, so that a silent SnowLuma cannot make a
// person at a terminal wait the full request timeout three times over.
const maxWait = 10 * time.Second

// Run checks the configuration and, as far as it is sound, everything it
// points at.
func Run(ctx context.Context, d Deps) *Report {
	r := &Report{}
	r.strays(d.Environ)
	cfg, warnings, err := config.Load(d.Getenv)
	if err != nil {
		var p *config.Problem
		if errors.As(err, &p) {
			r.Malformed = p.Var
		}
		r.add(Item{Name: "configuration", Status: Fail, Detail: err.Error(),
			Fix: "correct that variable in the MCP host's entry for this server (its env block), then run the check again"})
		r.finish()
		return r
	}
	r.Mode = string(cfg.Mode)
	r.add(Item{Name: "configuration", Status: OK, Detail: describeMode(cfg)})
	for _, w := range warnings {
		r.add(Item{Name: "configuration", Status: Warn, Detail: w, Fix: "remove the setting or change the mode"})
	}
	if cfg.ExecutionEnabled() {
		wait := min(cfg.Timeout, maxWait)
		account := r.endpoint(ctx, cfg, d.Catalog, wait)
		r.events(ctx, cfg, account, wait)
	}
	r.directories(cfg)
	r.settings(cfg)
	r.finish()
	return r
}

func (r *Report) add(it Item) { r.Items = append(r.Items, it) }

// strays reports each variable named like a setting that the server does
// not read. It is a warning, not a failure: the server starts and serves
// with it, and a newer host or version may set one this version does not
// know; but a misspelt setting leaves its feature off, which the person
// must see. The value is never shown.
func (r *Report) strays(environ []string) {
	for _, s := range config.Strays(environ) {
		r.add(Item{Name: "unknown variable", Status: Warn, Detail: s.Ignored(), Fix: s.Fix})
	}
}

// finish decides the verdict: no item failed.
func (r *Report) finish() {
	r.OK = true
	for _, it := range r.Items {
		if it.Status == Fail {
			r.OK = false
		}
	}
}

// describeMode says what the mode offers, and where the server will
// connect, without the endpoint's query (it may carry a token).
func describeMode(cfg *config.Config) string {
	switch cfg.Mode {
	case config.ModeDocs:
		return "docs mode: the action catalog only, no SnowLuma endpoint"
	case config.ModeRead:
		return "read mode: read-only actions at " + redact(cfg.Endpoint)
	default:
		return "write mode: every action at " + redact(cfg.Endpoint)
	}
}

// redact is a URL without its query, fragment or credentials.
func redact(u *url.URL) string {
	c := url.URL{Scheme: u.Scheme, Host: u.Host, Path: onebot.Path(u)}
	return c.String()
}
