// Package server assembles the MCP server: it registers each tool with the
// SDK's raw AddTool and runs the stage pipeline inside the tool handler,
// registers the catalog resources, and installs the protocol middleware
// (cache hints, legacy result shapes, panic safety). It holds no state of its
// own beyond what it is given.
package server

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/download"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages"
	"github.com/snowluma/snowluma-mcp/stages/input"
)

// Name and Version identify the server to clients.
const (
	Name    = "snowluma-mcp"
	Version = "0.1.0"
)

// Options configure New.
type Options struct {
	Config  *config.Config
	Catalog *catalog.Catalog
	Log     io.Writer        // stderr; diagnostics only, never protocol
	Now     func() time.Time // nil means time.Now
	// Calls, when set, counts tool calls in flight, so the process can let
	// them finish their cleanup (a partial download removed, an upload
	// reset) before it exits.
	Calls *sync.WaitGroup
}

// New builds the server for the configured mode.
func New(o Options) *mcp.Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, &mcp.ServerOptions{
		Instructions: instructions(o.Config.Mode),
		Logger:       slog.New(slog.NewTextHandler(o.Log, &slog.HandlerOptions{Level: slog.LevelWarn})),
		SetCacheable: cacheHints,
	})
	for _, t := range tools(o) {
		s.AddTool(t.def, t.handle)
	}
	addResources(s, o.Catalog)
	s.AddReceivingMiddleware(recoverMethods(o.Log), legacyShapes, legacySessions(s))
	return s
}

func instructions(mode config.Mode) string {
	base := "snowluma-mcp documents SnowLuma's OneBot v11 actions (list_actions, search_actions, get_action) "
	switch mode {
	case config.ModeWrite:
		return base + "and runs them: query_action for read-only actions, invoke_action for writes. Writes are never retried."
	case config.ModeRead:
		return base + "and runs read-only actions with query_action."
	default:
		return base + "offline (docs mode); no SnowLuma endpoint is configured."
	}
}

type tool struct {
	def    *mcp.Tool
	handle mcp.ToolHandler
}

// tools builds the mode's tools, each handler wrapped in the full pipeline.
func tools(o Options) []tool {
	var client *onebot.Client
	if o.Config.ExecutionEnabled() {
		client = onebot.New(o.Config.Endpoint, o.Config.Token, onebot.StreamTimeouts{
			Connect: o.Config.StreamConnectTimeout, Idle: o.Config.StreamIdleTimeout,
		})
	}
	chain := pipeline.Chain(stages.Default(stages.Deps{
		Config: o.Config, Catalog: o.Catalog, Client: client, Log: o.Log, Now: o.Now, Inputs: input.NewStore(o.Now),
	})...)
	var out []tool
	deps := &handlers.Deps{Catalog: o.Catalog, Config: o.Config, Quota: download.NewQuota(o.Config.DownloadDir, o.Config.DownloadQuotaBytes)}
	for _, t := range handlers.ForMode(deps) {
		out = append(out, tool{def: t.Def, handle: tracked(o.Calls, adapt(t.Spec, chain(t.Handle), o.Now))})
	}
	return out
}

// tracked counts h's calls in calls (when calls is set).
func tracked(calls *sync.WaitGroup, h mcp.ToolHandler) mcp.ToolHandler {
	if calls == nil {
		return h
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		calls.Add(1)
		defer calls.Done()
		return h(ctx, req)
	}
}
