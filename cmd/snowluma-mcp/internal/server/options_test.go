package server

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/stages"
)

// options builds the parts a test server needs the way cmd does, with
// output discarded.
func options(tb testing.TB, cfg *config.Config) Options {
	tb.Helper()
	cat, err := catalog.Load()
	require.NoError(tb, err)
	var client *onebot.Client
	if cfg.ExecutionEnabled() {
		client = onebot.New(cfg.Endpoint, cfg.Token, onebot.StreamTimeouts{Connect: cfg.StreamConnectTimeout, Idle: cfg.StreamIdleTimeout})
	}
	return Options{
		Config: cfg, Catalog: cat, Log: io.Discard,
		Stages: stages.Default(stages.Deps{
			Config: cfg, Catalog: cat, Client: client, Log: io.Discard, Now: time.Now,
			Prompts: prompt.NewStore(time.Now), Slots: slot.NewPool(cfg.MaxStreams, cfg.StreamConnectTimeout),
		}),
		Tools: handlers.All(&handlers.Deps{Catalog: cat, Config: cfg, Quota: download.NewQuota(cfg.DownloadDir, cfg.DownloadQuotaBytes)}),
	}
}
