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
	"net/url"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/setup"
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
	// lang is the language of the details and fixes (the terminal's):
	// the names, statuses and keys stay English, for scripts.
	lang lang.Tag
}

// Deps are what a check runs with: the environment and the release the
// bundled catalog describes.
type Deps struct {
	Getenv func(string) string
	// Environ is the whole environment ("NAME=value", as os.Environ gives
	// it), searched for variables named like settings that are not.
	Environ []string
	// CatalogVersion is the SnowLuma release the bundled catalog was made
	// from (catalog.Version), which SnowLuma's own version is held against.
	CatalogVersion string
	// Lang is the language to speak in: the terminal's (lang.Terminal).
	Lang lang.Tag
}

// maxWait bounds each probe, so that a silent SnowLuma cannot make a
// person at a terminal wait the full request timeout three times over.
const maxWait = 10 * time.Second

// Run checks the configuration and, as far as it is sound, everything it
// points at. The settings are read by setup.Decide, as the server reads
// them at start (without fixing anything): each finding is an item, and
// the check fails exactly when the server would refuse, fall back or run
// with less than the user set.
func Run(ctx context.Context, d Deps) *Report {
	r := &Report{lang: d.Lang}
	cfg := setup.Decide(setup.Env{Getenv: d.Getenv, Environ: d.Environ}, false)
	// The variables the server does not read come first, then the mode
	// it serves, then what the settings leave out of that mode: a
	// warning such as "the task folder is ignored in read mode" reads
	// after the line that says the mode, not before it.
	var rest []config.Finding
	for _, f := range cfg.Findings {
		if f.Item != config.StrayItem {
			rest = append(rest, f)
			continue
		}
		r.finding(f)
	}
	if cfg.Broken == nil {
		r.Mode = string(cfg.Mode)
		r.add(Item{Name: "configuration", Status: OK, Detail: r.say(describeMode(cfg))})
	}
	for _, f := range rest {
		r.finding(f)
	}
	if cfg.Broken != nil {
		r.Malformed = cfg.Broken.Var
		r.finish()
		return r
	}
	if cfg.ExecutionEnabled() {
		wait := min(cfg.Timeout, maxWait)
		account := r.endpoint(ctx, cfg, d.CatalogVersion, wait)
		r.events(ctx, cfg, account, wait)
	}
	r.directories(cfg)
	r.settings(cfg)
	r.finish()
	return r
}

// status is the item status of a finding's effect: what leaves the user
// with less than they set fails.
func status(e config.Effect) Status {
	switch {
	case e.Less():
		return Fail
	case e == config.Fixed:
		return OK
	}
	return Warn
}

func (r *Report) add(it Item) { r.Items = append(r.Items, it) }

// say is t in the report's language.
func (r *Report) say(t lang.Text) string { return t.In(r.lang) }

// finding is the item of a setting problem, in the report's language.
func (r *Report) finding(f config.Finding) {
	r.add(Item{Name: f.Item, Status: status(f.Effect), Detail: r.say(f.DetailText()), Fix: r.say(f.FixText())})
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
func describeMode(cfg *config.Config) lang.Text {
	switch cfg.Mode {
	case config.ModeDocs:
		return lang.Text{EN: "docs mode: the action catalog only, no SnowLuma endpoint", ZH: "docs 模式：只提供动作目录，不连接 SnowLuma"}
	case config.ModeRead:
		return lang.Text{EN: "read mode: read-only actions at " + redact(cfg.Endpoint), ZH: "read 模式：在 " + redact(cfg.Endpoint) + " 执行只读动作"}
	default:
		return lang.Text{EN: "write mode: every action at " + redact(cfg.Endpoint), ZH: "write 模式：在 " + redact(cfg.Endpoint) + " 执行所有动作"}
	}
}

// redact is a URL without its query, fragment or credentials.
func redact(u *url.URL) string {
	c := url.URL{Scheme: u.Scheme, Host: u.Host, Path: onebot.Path(u)}
	return c.String()
}
