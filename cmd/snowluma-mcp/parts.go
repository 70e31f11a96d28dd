package main

import (
	"io"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/download"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/hub"
	"github.com/snowluma/snowluma-mcp/onebot"
	"github.com/snowluma/snowluma-mcp/prompt"
	"github.com/snowluma/snowluma-mcp/server"
	"github.com/snowluma/snowluma-mcp/slot"
	"github.com/snowluma/snowluma-mcp/stages"
)

// parts builds the long-lived parts of a running server, once, and hands
// them to the server to assemble: the OneBot client (none in docs mode), the
// prompt store, the stream slots, the download quota, the stages and the
// tools, and the event hub (only when SNOWLUMA_MCP_EVENTS_URL is set and
// the mode can run anything; it connects nothing until a subscription).
func parts(cfg *config.Config, cat *catalog.Catalog, log io.Writer, calls *sync.WaitGroup) server.Options {
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
	return server.Options{
		Config: cfg, Catalog: cat, Log: log, Now: time.Now, Calls: calls, Events: events,
		Stages: stages.Default(stages.Deps{
			Config: cfg, Catalog: cat, Client: client, Log: log, Now: time.Now,
			Prompts: prompt.NewStore(time.Now),
			Slots:   slot.NewPool(cfg.MaxStreams, cfg.StreamConnectTimeout),
		}),
		Tools: handlers.All(&handlers.Deps{
			Catalog: cat, Config: cfg,
			Quota:  download.NewQuota(cfg.DownloadDir, cfg.DownloadQuotaBytes),
			Events: events,
		}),
	}
}
