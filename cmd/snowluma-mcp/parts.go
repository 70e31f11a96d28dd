package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/cmd/snowluma-mcp/internal/server"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/setup"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/internal/span"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/stages"
)

// parts builds the long-lived parts of a running server, once, and hands
// them to the server to assemble: the OneBot client (none in docs mode), the
// prompt store, the stream slots, the download quota, the task store
// (write mode with a task directory only), the event hub (only when
// SNOWLUMA_MCP_EVENTS_URL is set and the mode can run anything; it connects
// nothing until a subscription), the stages, the tools, and the wire that
// the transport is wrapped with.
func parts(cfg *config.Config, cat *catalog.Catalog, log io.Writer, calls *sync.WaitGroup) server.Options {
	// One content policy for events and action results alike.
	screen := content.New(cfg.TrustedUsers)
	var events *hub.Hub
	if cfg.EventsURL != nil && cfg.ExecutionEnabled() {
		events = hub.New(hub.Options{
			Dial:      hub.WebSocket(cfg.EventsURL, cfg.EventsToken, hub.DefaultLimits.Frame),
			Now:       time.Now,
			Handshake: cfg.Timeout,
			Screen:    screen.Event,
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
	// The logged-in account, learned once from SnowLuma: the content
	// stage tells the account's own words by it, and the send budgets
	// are kept per account.
	self := &content.Account{}
	var meter *budget.Meter
	if cfg.WriteEnabled() {
		shared := budget.NewShared(cfg.StateDir, account(cfg, client, self), cfg.SendPace, budget.Wall{}, log)
		if f := cfg.Off(config.StateDirVar); f != nil && cfg.StateDir == "" {
			// Malformed: there is no directory to look at again. One
			// that is only unusable is checked at every step, so that
			// a fixed one is used from the next send on.
			shared.Refuse(f.Detail, f.Fix)
		}
		meter = budget.New(cfg.SendPace, budget.Wall{}, shared)
	}
	store := tasks(cfg, log, client, screen)
	// One key signs input continuations and seals list_tasks cursors.
	prompts := prompt.NewStore(time.Now)
	st := stages.Default(stages.Deps{
		Config: cfg, Catalog: cat, Client: client, Log: log, Now: time.Now, Content: screen, Account: self,
		Prompts: prompts,
		Slots:   slot.NewPool(cfg.MaxStreams, cfg.StreamConnectTimeout),
		Pace:    meter,
	})
	tools := handlers.All(&handlers.Deps{
		Catalog: cat, Config: cfg, Tasks: store, Events: events, Prompts: prompts, Pace: meter,
		Quota: download.NewQuota(cfg.DownloadDir, cfg.DownloadQuotaBytes),
	})
	return server.Options{Config: cfg, Catalog: cat, Log: log, Calls: calls, Stages: st, Tools: tools, Tasks: store, Events: events,
		Wire: server.NewWire()}
}

// tasks opens the task store when background tasks are on (the server
// runs them). A store that cannot be opened (a file in it that is not the
// store's, a damaged record) turns background tasks off, with the reason
// added to the findings, and the rest of the mode works. Opening it, and later reading a task whose server is gone,
// cleans up what tasks left unfinished by a killed server process had
// left behind: their partial downloads, and (through client, with a reset
// only) their upload streams in SnowLuma. Every result it serves is
// screened for this server's content policy (screen), whatever the server
// that ran the task was set to.
func tasks(cfg *config.Config, log io.Writer, client *onebot.Client, screen *content.Filter) *task.Store {
	if cfg.TaskDir == "" || !cfg.WriteEnabled() {
		return nil // the findings say why, when it was set
	}
	sweep := &task.Sweeper{
		RemovePartial: func(path string) error { return download.RemovePartial(cfg.DownloadDir, path) },
		ResetUpload: func(id string) error {
			// A reset of a gone server's stream belongs to no call: it
			// starts a trace of its own.
			sc, _ := span.Start(nil)
			return upload.Reset(context.Background(), client.With(span.Headers(sc)), id, startResetTimeout(cfg))
		},
	}
	store, recovered, err := task.Open(cfg.TaskDir, setup.TaskScope(cfg), time.Now, sweep)
	if err != nil {
		f := setup.StoreFailed(cfg, err)
		cfg.Findings = append(cfg.Findings, f)
		say(log, f)
		return nil
	}
	store.SetScreen(handlers.ScreenTaskResults(screen))
	if recovered > 0 {
		fmt.Fprintf(log, "snowluma-mcp: %d task(s) left unfinished by a server process that is gone were settled (marked failed with the remote outcome unknown unless their result had been saved; what they left behind was cleaned up where it could be, as each task's message says); none is replayed\n", recovered)
	}
	return store
}

// startResetTimeout bounds a reset sent at start, where the client waits
// for the server to answer at all: the ordinary reset bound, but never so
// long that a silent SnowLuma outlasts a client's patience.
func startResetTimeout(cfg *config.Config) time.Duration {
	return min(handlers.ResetTimeout(cfg), 10*time.Second)
}

// account names the QQ account the endpoint serves, from get_login_info,
// asked when the first delivery needs its budgets: the shared budgets are
// the account's, so "localhost" and "127.0.0.1" are one account. A lookup
// that fails is asked again at the next delivery.
func account(cfg *config.Config, client *onebot.Client, self *content.Account) func() (string, error) {
	return func() (string, error) {
		var failed error
		reply := &onebot.Reply{}
		id := self.Resolve(context.Background(), func(ctx context.Context) ([]byte, error) {
			ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
			defer cancel()
			sc, _ := span.Start(nil)
			r, err := client.With(span.Headers(sc)).Do(ctx, "get_login_info", json.RawMessage(`{}`))
			if err != nil {
				failed = err
				return nil, err
			}
			reply = r
			return r.Raw, nil
		})
		switch {
		case id != 0:
			return strconv.FormatInt(id, 10), nil
		case failed != nil:
			return "", fmt.Errorf("get_login_info, which names the account whose send budgets to use, failed: %w", failed)
		default:
			return "", fmt.Errorf("get_login_info, which names the account whose send budgets to use, did not name it (status %q, retcode %s)", reply.Status, reply.Retcode)
		}
	}
}
