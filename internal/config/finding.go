package config

import "github.com/snowluma/snowluma-mcp/internal/lang"

// Effect is what the server does about a setting problem. It is decided
// once (package setup) and read by the server's start, by `check` and by
// the tests that hold the two together.
type Effect string

// The effects, from the gravest.
const (
	// Explain: the server serves only the documentation tools and says
	// what is wrong (a malformed mode, endpoint, token or limit).
	Explain Effect = "explain"
	// Off: one service is off (events, uploads, downloads, background
	// tasks, sends) and the rest of the mode works.
	Off Effect = "off"
	// Fallback: the server serves a lesser mode than the one set.
	Fallback Effect = "fallback"
	// Fixed: the server fixed the problem itself (a new, empty folder
	// made private) and says so once.
	Fixed Effect = "fixed"
	// Noted: the server runs as set; the problem is worth knowing.
	Noted Effect = "noted"
)

// Less reports whether the server runs with less than the user set:
// `check` then fails.
func (e Effect) Less() bool { return e == Explain || e == Off || e == Fallback }

// StrayItem is the item of a variable the server does not read; the
// runtime report and the instructions name those apart (Notice).
const StrayItem = "unknown variable"

// Finding is one setting problem as decided: never a value, which may be
// a secret.
type Finding struct {
	// Item is the name of `check`'s line for it ("task dir").
	Item string `json:"item"`
	// Var is the variable to change.
	Var    string `json:"variable"`
	Effect Effect `json:"effect"`
	// Detail says what was found and what the server does.
	Detail string `json:"detail"`
	// Fix is for the person at the terminal: what to change, and when it
	// takes effect.
	Fix string `json:"fix"`
	// Agent is for the agent: what it cannot do now and what to tell the
	// user.
	Agent string `json:"-"`
	// DetailZH and FixZH are Detail and Fix in Chinese, for `check` in a
	// Chinese terminal; empty where only English is written.
	DetailZH, FixZH string `json:"-"`
}

// DetailText is Detail in both languages.
func (f Finding) DetailText() lang.Text { return lang.Text{EN: f.Detail, ZH: f.DetailZH} }

// FixText is Fix in both languages.
func (f Finding) FixText() lang.Text { return lang.Text{EN: f.Fix, ZH: f.FixZH} }

// Off is the finding that turned off the service of variable, or nil
// when it is on: what a call of that service says instead of trying.
// Live events are asked for by EventsVar and turned off by it or by
// EventsTokenVar: the finding names whichever of the two to correct.
func (c *Config) Off(variable string) *Finding {
	if c == nil {
		return nil
	}
	for i, f := range c.Findings {
		same := f.Var == variable || (variable == EventsVar && f.Var == EventsTokenVar)
		if same && f.Effect == Off {
			return &c.Findings[i]
		}
	}
	return nil
}

// Line is the finding as one line of stderr.
func (f Finding) Line() string {
	line := f.Detail
	if f.Fix != "" && f.Effect != Fixed {
		line += " → " + f.Fix
	}
	return line
}
