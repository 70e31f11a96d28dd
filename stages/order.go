// Package stages assembles the tool-call pipeline. The order lives here and
// only here; TestDefaultOrder pins it.
package stages

import (
	"io"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/calllog"
	"github.com/snowluma/snowluma-mcp/stages/deadline"
	"github.com/snowluma/snowluma-mcp/stages/envelope"
	"github.com/snowluma/snowluma-mcp/stages/execute"
	"github.com/snowluma/snowluma-mcp/stages/gate"
	"github.com/snowluma/snowluma-mcp/stages/input"
	"github.com/snowluma/snowluma-mcp/stages/progress"
	"github.com/snowluma/snowluma-mcp/stages/recovery"
	"github.com/snowluma/snowluma-mcp/stages/trace"
	"github.com/snowluma/snowluma-mcp/stages/validate"
)

// Deps are what the stages need from the running server.
type Deps struct {
	Config  *config.Config
	Catalog *catalog.Catalog
	Client  *onebot.Client // nil in docs mode
	Inputs  *input.Store   // pending input prompts
	Log     io.Writer      // stderr
	Now     func() time.Time
}

// Default returns the stages in request-flow order (the first is outermost).
//
//   - trace comes first so that every result, tool errors included, carries
//     the call's traceparent, and every later stage can see the span.
//   - calllog sits inside trace (it logs the traceparent) and outside the
//     envelope, so it logs the final verdict of every call.
//   - envelope sits outside everything that can fail, so gate, validation,
//     timeout and transport failures all become results with diagnostics.
//   - recovery sits inside envelope so a panic becomes an internal failure
//     with proper diagnostics rather than a dead process.
//   - gate comes before input completion and validation, so a call the mode
//     refuses is refused before the user is ever asked anything.
//   - input completes missing required params (only *_with_input tools)
//     before validation, which then checks the completed params.
//   - validate checks arguments and params before any time is spent waiting.
//   - deadline starts the request timeout just before execution.
//   - progress sits outside execute so the final pending notification goes
//     out before the result, and none after it.
//   - execute binds the call's OneBot client and stream slot innermost, next
//     to the handler.
func Default(d Deps) []pipeline.Stage {
	return []pipeline.Stage{
		trace.New(),
		calllog.New(d.Log, d.Now),
		envelope.New(),
		recovery.New(d.Log),
		gate.New(d.Config.Mode, d.Catalog),
		input.New(d.Inputs),
		validate.New(),
		deadline.New(d.Config.Timeout),
		progress.New(progress.Interval, nil),
		execute.New(d.Client, d.Config.MaxStreams, d.Config.StreamConnectTimeout),
	}
}
