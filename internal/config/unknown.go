package config

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/snowluma/snowluma-mcp/internal/typo"
)

// Prefix begins the name of every variable the server reads.
const Prefix = "SNOWLUMA_MCP_"

// The hooks: variables the binary reads outside Load, for tests and
// profiling. They are not settings (the docs' Configuration table
// leaves them out), but whoever sets one has not misspelt anything.
const (
	// RuntimeStatsVar turns on the SIGUSR1 runtime-stats line the soak
	// tests read.
	RuntimeStatsVar = "SNOWLUMA_MCP_DEBUG_RUNTIME_STATS"
	// CPUProfileVar is where a -tags profile build writes its profile.
	CPUProfileVar = "SNOWLUMA_MCP_CPUPROFILE"
)

// Variables returns the name of every setting Load reads, sorted. Load is
// the list: its reads are recorded, so a setting added to Load is known
// here, and to the test that holds Descriptions (the docs' table) to it,
// without a second list to keep in step.
var Variables = sync.OnceValue(func() []string {
	var read []string
	_, _, _ = Load(func(name string) string {
		if !slices.Contains(read, name) {
			read = append(read, name)
		}
		return ""
	})
	slices.Sort(read)
	return read
})

// known is every variable the binary reads: the settings and the hooks.
func known() []string { return append(slices.Clone(Variables()), RuntimeStatsVar, CPUProfileVar) }

// Stray is a variable named like one of the server's that the server does
// not read: a misspelt setting, most often, whose feature the user then
// believes is on. It carries no value: a value may be a secret.
type Stray struct {
	Name string
	// Closest is the variable the name most likely meant; "" when none is
	// close enough to suggest.
	Closest string
	// Fix says what to do about it.
	Fix string
}

// Ignored says that the variable is ignored.
func (s Stray) Ignored() string {
	return s.Name + " is not a variable this server reads, so it is ignored"
}

// Warning says, in one line, that the variable is ignored and what was
// probably meant.
func (s Stray) Warning() string { return s.Ignored() + ": " + s.Fix }

// Strays finds, in environ ("NAME=value" entries, as os.Environ gives
// them), every variable that starts with Prefix (in any case) and is not
// one the binary reads. A variable set to "" is left out: hosts write ""
// for a setting left blank, and an empty value does nothing even under
// the right name. On Windows names are matched without regard to case, as
// the system looks them up.
func Strays(environ []string) []Stray {
	return strays(environ, runtime.GOOS == "windows")
}

func strays(environ []string, foldCase bool) []Stray {
	names := known()
	var out []Stray
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if value == "" || len(name) < len(Prefix) || !strings.EqualFold(name[:len(Prefix)], Prefix) {
			continue
		}
		if slices.ContainsFunc(names, func(k string) bool { return k == name || foldCase && strings.EqualFold(k, name) }) {
			continue
		}
		out = append(out, closest(name, names))
	}
	return out
}

// closest picks the known name nearest to name by edit distance, counted
// after the prefix and without regard to case (a case slip costs nothing,
// and is said as such). It is suggested only when the distance is at most
// a third of the name's length, and never more than 3: beyond that the
// nearest name is a different setting, not a typo.
func closest(name string, names []string) Stray {
	want := strings.ToUpper(name[len(Prefix):])
	best, bestD := "", -1
	for _, k := range names {
		if d := typo.Distance(want, k[len(Prefix):]); bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	switch {
	case bestD == 0:
		return Stray{Name: name, Closest: best, Fix: "did you mean " + best + "? Variable names are case-sensitive: write it in capitals"}
	case bestD <= min(3, max(1, len(want)/3)):
		return Stray{Name: name, Closest: best, Fix: "did you mean " + best + "? Correct its name in the MCP host's entry for this server"}
	}
	if f, ok := features[want]; ok {
		return Stray{Name: name, Closest: f.variable, Fix: f.fix}
	}
	return Stray{Name: name, Fix: "no variable it reads is spelt like it (the Configuration table in docs/configuration.md lists them all); remove it or correct its name. A newer snowluma-mcp may read it"}
}

// Notice is one sentence for the agent naming the ignored variables and
// what each likely meant, never a value; "" when there are none. The agent
// does not see stderr, where the warnings go, and is often the one the
// user asks why a feature is off.
func Notice(strays []Stray) string {
	if len(strays) == 0 {
		return ""
	}
	names := make([]string, len(strays))
	for i, s := range strays {
		names[i] = s.Name
		if s.Closest != "" {
			names[i] += " (likely meant " + s.Closest + ")"
		}
	}
	return "Ignored environment variables, set but not read by this server, so what they were meant to set is off: " +
		strings.Join(names, ", ") + "; tell the user to correct them in this server's entry in the MCP client configuration."
}

// features are the words the README uses for a feature whose setting is
// spelt otherwise, and what turns the feature on.
var features = map[string]struct{ variable, fix string }{
	"LOCKDOWN": {TrustedUsersVar, "lockdown is turned on by " + TrustedUsersVar + ", the QQ numbers whose words the agent may see; set that instead"},
}
