package stages

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// spends names, for every default stage, what it spends or records per
// call, which TestBackgroundCallsSpendOnce counts. A stage that spends
// nothing says so; a new stage adds its row, and the test fails until it
// does.
var spends = map[string]string{
	"trace":      "nothing: each pass has its own span, the task's a child of the admission's",
	"calllog":    "the call's one log line (counted)",
	"envelope":   "nothing",
	"recovery":   "a log line, only on a panic",
	"arguments":  "nothing",
	"gate":       "nothing",
	"input":      "a pending prompt, only for AsksInput tools, which never detach",
	"params":     "nothing",
	"deadline":   "nothing",
	"progress":   "notifications: the admission's to the client, the task's to its record",
	"execute":    "a stream slot (counted) and the OneBot request it binds (counted)",
	"pace":       "a send budget, only for actions that deliver (never stream actions) and never for a tool that detaches (stages/pace's own tests)",
	"thirdparty": "at most one get_login_info per process, on the run that holds a result; nothing for a tool that detaches",
}

// syncBuffer is a log several goroutines write to.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines(prefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.b.String(), prefix)
}

// TestBackgroundCallsSpendOnce runs every default stage for a tool that
// detaches, through a real task runner, and counts what they spend: a call
// admitted in the background writes one log line, takes one stream slot
// and sends one request to SnowLuma, all on the task's own run; a refused
// admission writes its one line and spends nothing else.
func TestBackgroundCallsSpendOnce(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	pool := slot.NewPool(1, 50*time.Millisecond)
	var (
		mu            sync.Mutex
		requests      int
		slotWasHeld   bool
		cancelled, cf = context.WithCancel(context.Background())
	)
	cf()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		// With the pool's one slot taken by the task, a cancelled wait
		// gets none.
		if release, err := pool.Acquire(cancelled, nil); err == nil {
			release()
		} else {
			mu.Lock()
			slotWasHeld = true
			mu.Unlock()
		}
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":{}}`))
	}))
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	log := &syncBuffer{}
	st := Default(Deps{Config: &config.Config{Mode: config.ModeWrite, Timeout: time.Minute}, Catalog: cat,
		Client: onebot.New(u, "", onebot.StreamTimeouts{}), Prompts: prompt.NewStore(time.Now), Slots: pool, Log: log, Now: time.Now})
	for _, s := range st {
		assert.Contains(t, spends, s.Name(), "say what stage %s spends per call, and count it here", s.Name())
	}
	chain := pipeline.Chain(st...)

	// A directory the store creates itself is private on every platform.
	dir := filepath.Join(t.TempDir(), "tasks")
	store, _, err := task.Open(dir, task.Scope{Mode: "write", Endpoint: srv.URL}, nil, nil)
	require.NoError(t, err)
	runner := task.NewRunner(store, &syncBuffer{}, nil)
	ended := make(chan task.Record, 4)
	runner.OnStatus(func(r task.Record) {
		if r.Status.Terminal() {
			ended <- r
		}
	})
	run := pipeline.NewTool(pipeline.Spec{Name: "run", Mode: config.ModeWrite, Actions: pipeline.AnyAction, Result: `{"type":["object","null"]}`},
		func(ctx context.Context, c *pipeline.Call, _ *targetArgs) (*pipeline.Result, error) {
			reply, err := c.OneBot.Do(ctx, c.Action.Name, c.Params)
			if err != nil {
				return nil, err
			}
			return &pipeline.Result{Payload: reply.Raw}, nil
		})
	background := pipeline.NewTool(pipeline.Spec{Name: "run_background", Mode: config.ModeWrite, Actions: pipeline.AnyAction,
		Tasks: true, Detaches: true, Runs: run, Result: `{"type":["object","null"]}`},
		func(_ context.Context, c *pipeline.Call, _ *targetArgs) (*pipeline.Result, error) {
			rec, err := runner.Start(c)
			if err != nil {
				return nil, err
			}
			return &pipeline.Result{Task: rec.Handle()}, nil
		})
	runner.Use(run, chain(run, run.Handle))
	admit := chain(background, background.Handle)

	t.Run("an admitted call spends on the task's run only", func(t *testing.T) {
		// Every slot is busy while the call is admitted: admission takes none.
		release, err := pool.Acquire(context.Background(), nil)
		require.NoError(t, err)
		r, err := admit(context.Background(), &pipeline.Call{Tool: background, Started: time.Now(),
			Arguments: json.RawMessage(`{"action":"download_file_stream","params":{"file":"a.bin"}}`)})
		release()
		require.NoError(t, err)
		require.NotNil(t, r.Task, "admitted with every slot busy: %+v", r.Diagnostics)
		select {
		case rec := <-ended:
			require.Equal(t, task.Completed, rec.Status, rec.StatusMessage)
		case <-time.After(waitFor):
			require.FailNow(t, "the task never ended")
		}
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, 1, requests, "one request reached SnowLuma")
		assert.True(t, slotWasHeld, "the task's run held the stream slot while it sent")
		assert.Equal(t, 1, log.lines("snowluma-mcp call "), "one line for the call")
		assert.Equal(t, 1, log.lines("tool=run "), "written by the task's run, with the work's outcome")
		// Counted once the task has ended: the task may run and log as soon
		// as the slot is free, so a count taken earlier would race it.
		assert.Zero(t, log.lines("tool=run_background "), "the admission writes no line of its own")
	})
	t.Run("a refused admission logs once and spends nothing", func(t *testing.T) {
		before := log.lines("snowluma-mcp call ")
		r, err := admit(context.Background(), &pipeline.Call{Tool: background, Started: time.Now(),
			Arguments: json.RawMessage(`{"action":"no_such_action","params":{}}`)})
		require.NoError(t, err)
		assert.Nil(t, r.Task)
		assert.True(t, r.IsError)
		assert.Equal(t, before+1, log.lines("snowluma-mcp call "))
		assert.Equal(t, 1, log.lines("tool=run_background "), "the refusal is the call's line")
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, 1, requests, "nothing more reached SnowLuma")
	})
}

// waitFor bounds waits that would otherwise hang on a broken build; it is
// never an assertion about speed.
const waitFor = 30 * time.Second
