// Package handlers holds one file per MCP tool, named for the tool, and a
// snapshot of each tool's definition in testdata/toolsnaps that `make
// generate` rewrites. What only one tool uses sits in a file named for that
// tool (get_runtime_info_client.go, get_runtime_info_pace.go); what
// several share has a file of its own: tool.go (Deps and the list of
// tools), verdict.go (a OneBot reply judged), paging.go (list_actions and
// search_actions), stream_actions.go (the stream actions invoke_action and
// its background twin run) with stream_actions_screen.go (lockdown's screen
// of their saved task records, kept here because it reads which actions
// download and a stage may not import handlers), with_input.go (the two
// *_with_input twins) and off.go (the answer of a tool whose service the
// settings turned off).
// Each tool's file declares its tool once (name, description, least mode, how it runs actions, argument type, result
// schema, annotations) with pipeline.NewTool, and a handler that does the
// one thing the tool is for; gating, validation, tracing, timeouts and
// diagnostics belong to the stages around it.
package handlers

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Deps are the long-lived services handlers use, built once by cmd.
type Deps struct {
	Catalog *catalog.Catalog
	Config  *config.Config
	// Quota is the download directory's byte budget, shared by all calls.
	Quota *download.Quota
	// Tasks is the background task store, which list_tasks pages
	// through; nil without SNOWLUMA_MCP_TASK_DIR.
	Tasks *task.Store
	// Events is the live event hub; nil when SNOWLUMA_MCP_EVENTS_URL is
	// not set, and then the event tools do not exist at all.
	Events *hub.Hub
	// Prompts holds the per-process key the input continuations are
	// signed with; list_tasks seals its cursors with it. Nil gets a
	// store of its own.
	Prompts *prompt.Store
	// Pace holds the send budgets; nil when nothing can be sent (below
	// write mode) or pacing is off with no shared budgets to record in.
	Pace *budget.Meter
}

// All returns every tool in listing order. Which of them a server offers
// is decided by each tool's own Mode, through config.Mode.Allows.
func All(d *Deps) []*pipeline.Tool {
	if d.Prompts == nil {
		d.Prompts = prompt.NewStore(time.Now)
	}
	query, invoke := QueryAction(d), InvokeAction(d)
	tools := []*pipeline.Tool{
		ListActions(d), GetAction(d), SearchActions(d), ListCategories(d), GetRuntimeInfo(d),
		query, withInput(query), invoke, withInput(invoke), PreviewMessage(d),
		InvokeActionBackground(d, invoke), ListTasks(d),
	}
	if d.Events != nil {
		// Whether they exist depends on the configuration; which modes
		// show them is still their MinMode's business alone.
		tools = append(tools, SubscribeEvents(d), UnsubscribeEvents(d))
	} else if d.Config.Off(config.EventsVar) != nil {
		// Events were set and cannot be used: a subscription says why
		// and what the user must change, rather than the tool missing.
		tools = append(tools, SubscribeEvents(d))
	}
	return tools
}

func boolPtr(b bool) *bool { return &b }

var readOnlyDocs = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}
