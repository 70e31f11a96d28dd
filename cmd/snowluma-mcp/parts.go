package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/mcp/server"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages"
)

// parts builds the long-lived parts of a running server, once, and hands
// them to the server to assemble: the OneBot client (none in docs mode), the
// prompt store, the stream slots, the download quota, the task store and
// runner (write mode with a task directory only), the event hub (only when
// SNOWLUMA_MCP_EVENTS_URL is set and the mode can run anything; it connects
// nothing until a subscription), the stages, the tools, and the wire that
// the transport is wrapped with.
func parts(cfg *config.Config, cat *catalog.Catalog, log io.Writer, calls *sync.WaitGroup) (server.Options, error) {
	var events *hub.Hub
	if cfg.EventsURL != nil && cfg.ExecutionEnabled() {
		events = hub.New(hub.Options{
			Dial:      hub.WebSocket(cfg.EventsURL, cfg.Token, hub.DefaultLimits.Frame),
			Now:       time.Now,
			Handshake: cfg.Timeout,
		})
	}
	var client *onebot.Client
	if cfg.ExecutionEnabled() {
		client = onebot.New(cfg.Endpoint, cfg.Token, onebot.StreamTimeouts{
			Connect: cfg.StreamConnectTimeout, Idle: cfg.StreamIdleTimeout,
		})
	}
	// Only write mode can deliver anything; elsewhere there is nothing to
	// pace and no budget to show.
	var meter *budget.Meter
	if cfg.WriteEnabled() {
		meter = budget.New(cfg.SendPace, budget.Wall{})
	}
	runner, err := tasks(cfg, log)
	if err != nil {
		return server.Options{}, err
	}
	st := stages.Default(stages.Deps{
		Config: cfg, Catalog: cat, Client: client, Log: log, Now: time.Now,
		Prompts: prompt.NewStore(time.Now),
		Slots:   slot.NewPool(cfg.MaxStreams, cfg.StreamConnectTimeout),
		Pace:    meter,
	})
	tools := handlers.All(&handlers.Deps{
		Catalog: cat, Config: cfg, Tasks: runner, Events: events, Pace: meter,
		Quota: download.NewQuota(cfg.DownloadDir, cfg.DownloadQuotaBytes),
	})
	if runner != nil {
		// A task runs invoke_action's own chain: the same gates,
		// validation, stream slots and cleanup as a synchronous call.
		for _, t := range tools {
			if t.Name == "invoke_action" {
				runner.Use(t, pipeline.Chain(st...)(t, t.Handle))
			}
		}
	}
	return server.Options{Config: cfg, Catalog: cat, Log: log, Now: time.Now, Calls: calls, Stages: st, Tools: tools, Tasks: runner, Events: events,
		Wire: server.NewWire()}, nil
}

// tasks opens the task store and its runner when background tasks are on.
func tasks(cfg *config.Config, log io.Writer) (*task.Runner, error) {
	if cfg.TaskDir == "" {
		return nil, nil
	}
	if !cfg.WriteEnabled() {
		fmt.Fprintln(log, "snowluma-mcp: warning: SNOWLUMA_MCP_TASK_DIR is ignored: background tasks need write mode")
		return nil, nil
	}
	store, recovered, err := task.Open(cfg.TaskDir, task.Scope{Mode: string(cfg.Mode), Endpoint: cfg.Endpoint.String(), Token: cfg.Token}, time.Now)
	if err != nil {
		return nil, fmt.Errorf("task store: %w", err)
	}
	if recovered > 0 {
		fmt.Fprintf(log, "snowluma-mcp: %d task(s) left unfinished by an earlier run were settled (marked failed with the remote outcome unknown unless their result had been saved); none is replayed\n", recovered)
	}
	return task.NewRunner(store, log, time.Now), nil
}
