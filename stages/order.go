// Package stages assembles the tool-call pipeline, one package per stage
// below it, from the one list of where each stage runs and why. That list
// is written here and only here: the order of every call's chain, and which
// of those stages a background call's admission passes (Admits), each
// place with its reason (places). TestTheChainsRunInThePinnedOrder builds
// the chains and holds them to this list, and the docs' diagram is
// generated from it.
package stages

import (
	"io"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/arguments"
	"github.com/snowluma/snowluma-mcp/stages/bind"
	"github.com/snowluma/snowluma-mcp/stages/calllog"
	"github.com/snowluma/snowluma-mcp/stages/deadline"
	"github.com/snowluma/snowluma-mcp/stages/diagnostics"
	"github.com/snowluma/snowluma-mcp/stages/gate"
	"github.com/snowluma/snowluma-mcp/stages/input"
	"github.com/snowluma/snowluma-mcp/stages/lockdown"
	"github.com/snowluma/snowluma-mcp/stages/pace"
	"github.com/snowluma/snowluma-mcp/stages/params"
	"github.com/snowluma/snowluma-mcp/stages/progress"
	"github.com/snowluma/snowluma-mcp/stages/recovery"
	"github.com/snowluma/snowluma-mcp/stages/trace"
)

// Deps are the long-lived parts the stages use, built once by cmd.
type Deps struct {
	Config  *config.Config
	Catalog *catalog.Catalog
	Client  *onebot.Client  // nil in docs mode
	Prompts *prompt.Store   // pending questions to the user
	Slots   *slot.Pool      // concurrent stream transfers
	Pace    *budget.Meter   // send budgets; nil when none are kept (budget.New)
	Log     io.Writer       // stderr
	Content *content.Filter // third-party content: marked, or withheld in lockdown
	// Account is the logged-in account, learned once for the lockdown
	// stage and the send budgets alike; nil gives the stage its own.
	Account *content.Account
	Now     func() time.Time
}

// Place is one stage's place in the pipeline.
type Place struct {
	// Name is the stage's name, and the name of the package that declares it (TestEveryPlaceSaysWhyAndBuildsTheStageItNames).
	Name string
	// Does says in one line what the stage does, for the docs' diagram.
	Does string
	// Why says why the stage sits where it does in every call's chain.
	Why string
	// Admits says whether a background call's admission passes the stage
	// too; false when only the work does (whatever asks the user, spends a
	// budget or a slot, or sends). The admission's handler only starts a
	// task, whose run then passes every stage once, so what spends is
	// spent once. A stage that records each call is on both: at the
	// admission it meets a refusal where a synchronous call refused by the
	// same check would, and leaves an admitted call (an answer with a
	// Task) to the run.
	Admits bool
	// AdmitsWhy says why the admission passes the stage: set exactly when
	// Admits is (TestEveryPlaceSaysWhyAndBuildsTheStageItNames).
	AdmitsWhy string
	// New builds the stage from the long-lived parts.
	New func(Deps) pipeline.Stage
}

// places is the order of every call's chain, the first outermost: a
// request meets the stages in this order and its result goes back out in
// reverse.
var places = []Place{
	{Name: "trace", Does: "span per call; _meta.traceparent on every result",
		Why:       "first, so that every result, tool errors included, carries the call's traceparent, and every later stage can see the span",
		Admits:    true,
		AdmitsWhy: "the answer (a task handle, or the refusal) carries the admission's traceparent, and the task's run is its child span",
		New:       func(Deps) pipeline.Stage { return trace.New() }},
	{Name: "calllog", Does: "one stderr line per call (tool, traceparent, outcome, kind, duration)",
		Why:       "inside trace (it logs the traceparent) and outside diagnostics, so it logs the final verdict of every call",
		Admits:    true,
		AdmitsWhy: "a refused admission has no run to write its line, so it is written here, where a synchronous refusal's would be; an admitted call's line is its run's",
		New:       func(d Deps) pipeline.Stage { return calllog.New(d.Log, d.Now) }},
	{Name: "diagnostics", Does: "every failure below becomes a tool result with diagnostics",
		Why:       "outside everything that can fail, so argument, gate, validation, timeout and transport failures all become results with diagnostics, and every payload leaves it encoded",
		Admits:    true,
		AdmitsWhy: "a refusal is a result with diagnostics before a task exists; nothing was sent",
		New:       func(Deps) pipeline.Stage { return diagnostics.New() }},
	{Name: "recovery", Does: "a panic becomes an internal error, never a dead process",
		Why:       "inside diagnostics, so a panic becomes an internal failure with proper diagnostics",
		Admits:    true,
		AdmitsWhy: "a panic while admitting is an internal failure with diagnostics, not a dead process",
		New:       func(d Deps) pipeline.Stage { return recovery.New(d.Log) }},
	{Name: "arguments", Does: "tool arguments checked against the tool's schema, decoded once",
		Why:       "everything after it reads the typed value, and the gate needs the action it names",
		Admits:    true,
		AdmitsWhy: "the arguments are checked and decoded before a task is recorded; the handler reads the typed value",
		New:       func(Deps) pipeline.Stage { return arguments.New() }},
	{Name: "gate", Does: "mode, action lookup (aliases), read/write routing",
		Why:       "refuses what the mode forbids and resolves the action before input, so a call it refuses never prompts the user",
		Admits:    true,
		AdmitsWhy: "what the mode forbids, or an action the tool may not run, is refused before a task exists; the handler reads the resolved action",
		New:       func(d Deps) pipeline.Stage { return gate.New(d.Config.Mode, d.Catalog) }},
	{Name: "input", Does: "tools that may ask: ask for missing required params",
		Why: "completes missing required params (only tools that declare AsksInput) before params, which then checks the completed params",
		New: func(d Deps) pipeline.Stage { return input.New(d.Prompts) }},
	{Name: "params", Does: "OneBot params checked against the action's JSON Schema and SnowLuma's 2 MiB body cap",
		Why:       "checks the OneBot params, and that their request fits the body SnowLuma reads, before any time is spent waiting or any budget spent",
		Admits:    true,
		AdmitsWhy: "params that do not fit the action are refused before a task exists",
		New:       func(Deps) pipeline.Stage { return params.New() }},
	{Name: "lockdown", Does: "others' words in results marked, or withheld in lockdown; a forward of words it withholds refused",
		Why: "after params (it reads the checked params of a forward of a single message, and reads that message from SnowLuma) and before pace, " +
			"so a forward it refuses costs no send budget and SnowLuma sees only the read; inside diagnostics and recovery, so what it withholds " +
			"never reaches an encoded payload, a task record or a log, and a panic in it withholds the whole result; outside deadline, so it " +
			"bounds what it asks SnowLuma itself with the same request timeout",
		New: func(d Deps) pipeline.Stage {
			return lockdown.New(d.Content, d.Account, d.Catalog, d.Client, d.Config.Timeout)
		}},
	{Name: "pace", Does: "deliveries spend their target's and the account's send budget: wait (visibly) or refuse",
		Why: "after everything that can refuse the call (a refused call costs no budget, and pace reads the completed, checked params " +
			"for its target) and before deadline, so a wait for a budget never eats the request timeout; cancellation still cuts it short",
		New: func(d Deps) pipeline.Stage { return pace.New(d.Pace) }},
	{Name: "deadline", Does: "ordinary request timeout (streams use connect/idle timeouts)",
		Why: "starts the request timeout just before execution",
		New: func(d Deps) pipeline.Stage { return deadline.New(d.Config.Timeout) }},
	{Name: "progress", Does: "throttled progress to the call's Notify when one was asked for",
		Why: "outside bind, so that it closes the call's reports when the handler returns: the value still pending is dropped, and nothing goes out after the result",
		New: func(Deps) pipeline.Stage { return progress.New(progress.Interval) }},
	{Name: "bind", Does: "per-call OneBot client with trace headers; stream slots; no retries",
		Why: "innermost, next to the handler: binds the call's OneBot client and stream slot",
		New: func(d Deps) pipeline.Stage { return bind.New(d.Client, d.Slots) }},
}

// Places returns every stage's place, in the order of every call's chain.
func Places() []Place { return append([]Place(nil), places...) }

// Chains are the two chains a server wraps its tools in.
type Chains struct {
	// Call is every call's chain: a synchronous call's, and a background
	// task's run.
	Call []pipeline.Stage
	// Admission is the chain a background call (a tool that Detaches)
	// passes to be admitted: the stages of Call whose place Admits, in
	// Call's order, the same values.
	Admission []pipeline.Stage
}

// Assemble builds each place's stage once from d: Default(d) is
// Assemble(d, Places()).
func Assemble(d Deps, ps []Place) Chains {
	var ch Chains
	for _, p := range ps {
		s := p.New(d)
		ch.Call = append(ch.Call, s)
		if p.Admits {
			ch.Admission = append(ch.Admission, s)
		}
	}
	return ch
}

// Default builds the server's chains.
func Default(d Deps) Chains { return Assemble(d, Places()) }

// Handlers wraps each tool once, on first asking, and hands out the same
// handler whenever it is asked again: a tool that Detaches gets the
// admission's chain, every other tool the whole chain, which a background
// task's run of it shares with its synchronous calls. It is for assembly,
// on one goroutine.
func Handlers(ch Chains) func(*pipeline.Tool) pipeline.Handler {
	whole, admit := pipeline.Chain(ch.Call...), pipeline.Chain(ch.Admission...)
	wrapped := map[*pipeline.Tool]pipeline.Handler{}
	return func(t *pipeline.Tool) pipeline.Handler {
		if h, ok := wrapped[t]; ok {
			return h
		}
		h := whole
		if t.Detaches {
			h = admit
		}
		wrapped[t] = h(t, t.Handle)
		return wrapped[t]
	}
}
