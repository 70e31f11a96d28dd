// Package stages assembles the tool-call pipeline. The order lives here and
// only here, with the stages a background call passes to be admitted;
// TestDefaultOrder and TestAdmissionOrder pin them.
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
	"github.com/snowluma/snowluma-mcp/stages/calllog"
	"github.com/snowluma/snowluma-mcp/stages/deadline"
	"github.com/snowluma/snowluma-mcp/stages/envelope"
	"github.com/snowluma/snowluma-mcp/stages/execute"
	"github.com/snowluma/snowluma-mcp/stages/gate"
	"github.com/snowluma/snowluma-mcp/stages/input"
	"github.com/snowluma/snowluma-mcp/stages/pace"
	"github.com/snowluma/snowluma-mcp/stages/params"
	"github.com/snowluma/snowluma-mcp/stages/progress"
	"github.com/snowluma/snowluma-mcp/stages/recovery"
	"github.com/snowluma/snowluma-mcp/stages/thirdparty"
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
	// Account is the logged-in account, learned once for the content
	// stage and the send budgets alike; nil gives the stage its own.
	Account *content.Account
	Now     func() time.Time
}

// Default returns the stages in request-flow order (the first is outermost).
//
//   - trace comes first so that every result, tool errors included, carries
//     the call's traceparent, and every later stage can see the span.
//   - calllog sits inside trace (it logs the traceparent) and outside the
//     envelope, so it logs the final verdict of every call.
//   - envelope sits outside everything that can fail, so argument, gate,
//     validation, timeout and transport failures all become results with
//     diagnostics, and every payload leaves it encoded.
//   - recovery sits inside envelope so a panic becomes an internal failure
//     with proper diagnostics rather than a dead process.
//   - arguments checks and decodes the tool arguments once; everything after
//     it reads the typed value, and the gate needs the action it names.
//   - gate refuses what the mode forbids and resolves the action before
//     input completion, so a call it refuses never prompts the user.
//   - input completes missing required params (only tools that declare
//     AsksInput) before params, which then checks the completed params.
//   - params checks the OneBot params before any time is spent waiting.
//   - thirdparty sits after params (it reads the checked params of a
//     forward of a single message, and reads that message from SnowLuma)
//     and before pace, so a forward it refuses in lockdown costs no send
//     budget and SnowLuma sees only the read; inside envelope and
//     recovery, so what it withholds never reaches an encoded payload, a
//     task record or a log, and a panic in it withholds the whole result.
//     Being outside deadline, it bounds what it asks SnowLuma itself (the
//     message, the account) with the same request timeout.
//   - pace spends a delivery's send budgets after everything that can
//     refuse the call (a call that gate, input, params or thirdparty
//     refuse costs no budget, and reads the completed, checked params for
//     its target) and before deadline, so a wait for a budget never eats
//     the request timeout; cancellation still cuts it short.
//   - deadline starts the request timeout just before execution.
//   - progress sits outside execute so that it closes the call's reports
//     when the handler returns: the value still pending is dropped, and
//     nothing goes out after the result.
//   - execute binds the call's OneBot client and stream slot innermost, next
//     to the handler.
func Default(d Deps) []pipeline.Stage {
	return []pipeline.Stage{
		trace.New(),
		calllog.New(d.Log, d.Now),
		envelope.New(),
		recovery.New(d.Log),
		arguments.New(),
		gate.New(d.Config.Mode, d.Catalog),
		input.New(d.Prompts),
		params.New(),
		thirdparty.New(d.Content, d.Account, d.Catalog, d.Client, d.Config.Timeout),
		pace.New(d.Pace),
		deadline.New(d.Config.Timeout),
		progress.New(progress.Interval),
		execute.New(d.Client, d.Slots),
	}
}

// Admission returns the stages of full (Default's) that a background call
// (a tool that Detaches) passes to be admitted, in full's order: those
// that act AtAdmission, and those that act PerCall, which act there only
// on a refusal. Their handler only starts the task, which then
// runs the whole chain of the tool it Runs once; nothing that acts InWork
// sees the admission, so nothing is spent or recorded twice.
//
//   - trace: the answer (a task handle, or the refusal) carries the
//     admission's traceparent, and the task's run is its child span.
//   - calllog acts PerCall: on the admission only when it refuses the
//     call (there is no task, so no run to write the call's line), in its
//     place outside the checks, as for a synchronous refusal; an admitted
//     call's line is the task run's, with the work's outcome.
//   - envelope: a refusal is a result with diagnostics, before a task
//     exists; nothing was sent.
//   - recovery: a panic while admitting is an internal failure with
//     diagnostics, not a dead process.
//   - arguments: the arguments are checked and decoded before a task is
//     recorded; the handler reads the typed value.
//   - gate: what the mode forbids, or an action the tool may not run, is
//     refused before a task exists; the handler reads the resolved action.
//   - params: params that do not fit the action are refused before a task
//     exists.
//
// input, thirdparty, pace, deadline, progress and execute act in the work
// only: the task's run asks the user, spends the budget, takes the stream
// slot and sends.
func Admission(full []pipeline.Stage) []pipeline.Stage {
	var out []pipeline.Stage
	for _, s := range full {
		switch s.Acts() {
		case pipeline.AtAdmission:
			out = append(out, s)
		case pipeline.PerCall:
			out = append(out, pipeline.OnRefusal(s))
		}
	}
	return out
}

// Handlers wraps each tool once, on first asking, and hands out the same
// handler whenever it is asked again: a tool that Detaches gets the
// admission's chain (Admission), every other tool the whole chain of full,
// which a background task's run of it shares with its synchronous calls.
// It is for assembly, on one goroutine.
func Handlers(full []pipeline.Stage) func(*pipeline.Tool) pipeline.Handler {
	whole, admit := pipeline.Chain(full...), pipeline.Chain(Admission(full)...)
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
