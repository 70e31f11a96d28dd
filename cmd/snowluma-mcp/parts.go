package main

import (
	"io"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/download"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/onebot"
	"github.com/snowluma/snowluma-mcp/prompt"
	"github.com/snowluma/snowluma-mcp/server"
	"github.com/snowluma/snowluma-mcp/slot"
	"github.com/snowluma/snowluma-mcp/stages"
)

// parts builds the long-lived parts of a running server, once, and hands
// them to the server to assemble: the OneBot client (none in docs mode), the
// prompt store, the stream slots, the download quota, the stages and the
// tools.
func parts(cfg *config.Config, cat *catalog.Catalog, log io.Writer, calls *sync.WaitGroup) server.Options {
	var client *onebot.Client
	if cfg.ExecutionEnabled() {
		client = onebot.New(cfg.Endpoint, cfg.Token, onebot.StreamTimeouts{
			Connect: cfg.StreamConnectTimeout, Idle: cfg.StreamIdleTimeout,
		})
	}
	return server.Options{
		Config: cfg, Catalog: cat, Log: log, Now: time.Now, Calls: calls,
		Stages: stages.Default(stages.Deps{
			Config: cfg, Catalog: cat, Client: client, Log: log, Now: time.Now,
			Prompts: prompt.NewStore(time.Now),
			Slots:   slot.NewPool(cfg.MaxStreams, cfg.StreamConnectTimeout),
		}),
		Tools: handlers.All(&handlers.Deps{
			Catalog: cat, Config: cfg,
			Quota: download.NewQuota(cfg.DownloadDir, cfg.DownloadQuotaBytes),
		}),
	}
}
