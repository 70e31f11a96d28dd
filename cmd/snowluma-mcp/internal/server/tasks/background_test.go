package tasks

// The stage chain and the task runner together, assembled as the server
// assembles them: a background call spends, counts and logs once.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/budget"
	"github.com/snowluma/snowluma-mcp/internal/budget/budgettest"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/internal/slot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

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

// snowLuma answers every action, counting each, and notes whether the
// process's one stream slot was taken while a stream request was sent.
type snowLuma struct {
	pool *slot.Pool

	mu       sync.Mutex
	asked    map[string]int
	slotHeld int
}

func (s *snowLuma) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Action string `json:"action"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	held := false
	if strings.HasSuffix(req.Action, "_stream") {
		// A cancelled wait gets a slot only if one is free.
		gone, cancel := context.WithCancel(context.Background())
		cancel()
		if release, err := s.pool.Acquire(gone, nil); err == nil {
			release()
		} else {
			held = true
		}
	}
	s.mu.Lock()
	s.asked[req.Action]++
	if held {
		s.slotHeld++
	}
	s.mu.Unlock()
	switch req.Action {
	case "get_login_info":
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":{"user_id":10001,"nickname":"bot"}}`))
	case "get_group_msg_history":
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":{"messages":[{"message_id":2,"user_id":10009,"raw_message":"evil","sender":{"user_id":10009}}]}}`))
	default:
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":{"message_id":7}}`))
	}
}

// effects is what a world has spent and recorded so far.
type effects struct {
	counted, lines, spent, slotHeld, notified int
	asked                                     map[string]int
}

// world is every long-lived part the stages use, real, around one fake
// SnowLuma, with a counting stage inserted at one position of the order,
// assembled the way the server assembles it (Handlers), and a task runner
// on the same chains.
type world struct {
	snow     *snowLuma
	pool     *slot.Pool
	meter    *budget.Meter
	log      *syncBuffer
	counted  func() int
	run, bg  *pipeline.Tool
	handler  func(*pipeline.Tool) pipeline.Handler
	runner   *Runner
	store    *task.Store
	ended    chan task.Record
	notified int
	mu       sync.Mutex
}

// everyPart builds Deps with every part set, and fails when one is left
// out: a stage that does nothing without its part would otherwise count
// nothing here.
func everyPart(t *testing.T, d stages.Deps) stages.Deps {
	t.Helper()
	v := reflect.ValueOf(d)
	for i := range v.NumField() {
		assert.False(t, v.Field(i).IsZero(), "TestBackgroundCallsSpendOnce builds Deps.%s too", v.Type().Field(i).Name)
	}
	return d
}

func newWorld(t *testing.T, cat *catalog.Catalog, pos int) *world {
	t.Helper()
	w := &world{pool: slot.NewPool(1, 50*time.Millisecond), log: &syncBuffer{}, ended: make(chan task.Record, 8)}
	w.snow = &snowLuma{pool: w.pool, asked: map[string]int{}}
	srv := httptest.NewServer(w.snow)
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	// Ten sends at once, then one a minute; the clock never moves.
	w.meter = budget.New(config.SendPace{Target: config.Budget{Burst: 10, Every: time.Minute},
		Account: config.Budget{Burst: 10, Every: time.Minute}, Wait: time.Second}, budgettest.New(), nil)
	deps := everyPart(t, stages.Deps{
		Config:  &config.Config{Mode: config.ModeWrite, Timeout: time.Minute},
		Catalog: cat,
		Client:  onebot.New(u, "", onebot.StreamTimeouts{}),
		Prompts: prompt.NewStore(time.Now),
		Slots:   w.pool,
		Pace:    w.meter,
		Log:     w.log,
		Content: content.New([]int64{10002}), // lockdown: a stranger's words are withheld
		Account: &content.Account{},
		Now:     time.Now,
	})
	// A counting stage, added the way CONTRIBUTING says: it records each
	// call, so it has an admission reason too, and leaves an admitted
	// call (an answer with a Task) to the task's run.
	var counted atomic.Int64
	count := stagetest.Func(func(_ *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
		return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			r, err := next(ctx, c)
			if r == nil || r.Task == nil {
				counted.Add(1)
			}
			return r, err
		}
	})
	w.counted = func() int { return int(counted.Load()) }
	places := slices.Insert(stages.Places(), pos, stages.Place{Name: "count", Does: "counts calls", Why: "anywhere",
		Admits: true, AdmitsWhy: "it records each call", New: func(stages.Deps) pipeline.Stage { return count }})
	w.handler = stages.Handlers(stages.Assemble(deps, places))

	w.run = pipeline.NewTool[targetArgs, any](pipeline.Spec{Name: "run", MinMode: config.ModeWrite, Actions: pipeline.AnyAction, Result: `{"type":["object","null"]}`},
		func(ctx context.Context, c *pipeline.Call, _ *targetArgs) (pipeline.Reply[any], error) {
			c.Progress(1, 2)
			reply, err := c.OneBot.Do(ctx, c.Action.Name, c.Params)
			if err != nil {
				return pipeline.Reply[any]{}, err
			}
			return pipeline.Reply[any]{Payload: reply.Raw}, nil
		})
	w.bg = pipeline.NewTool[targetArgs, any](pipeline.Spec{Name: "run_background", MinMode: config.ModeWrite, Actions: pipeline.AnyAction,
		Tasks: true, Detaches: true, Runs: w.run, Result: `{"type":["object","null"]}`},
		func(_ context.Context, c *pipeline.Call, _ *targetArgs) (pipeline.Reply[any], error) {
			h, err := c.Detach(c)
			if err != nil {
				return pipeline.Reply[any]{}, err
			}
			return pipeline.Reply[any]{Task: h}, nil
		})
	// A directory the store creates itself is private on every platform.
	store, _, err := task.Open(filepath.Join(t.TempDir(), "tasks"), task.Scope{Mode: "write", Endpoint: srv.URL}, nil, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	w.store = store
	w.runner = NewRunner(store, &syncBuffer{}, []*pipeline.Tool{w.run, w.bg}, w.handler, func(r task.Record) {
		if r.Status.Terminal() {
			w.ended <- r
		}
	})
	return w
}

// admit runs one call the way the server does: a synchronous tool through
// its chain, a background one through its admission, with the task's hand-
// off set; the client asked for progress. It returns the call's answer.
func (w *world) admit(t *testing.T, tool *pipeline.Tool, args string) *pipeline.Result {
	t.Helper()
	c := &pipeline.Call{Request: pipeline.Request{Tool: tool, Arguments: json.RawMessage(args)}, Hooks: pipeline.Hooks{Notify: func(context.Context, int64, int64) error {
		w.mu.Lock()
		w.notified++
		w.mu.Unlock()
		return nil
	}}}
	if tool.Detaches {
		c.Detach = w.runner.Detach
	}
	r, err := w.handler(tool)(context.Background(), c)
	require.NoError(t, err, "the diagnostics stage lets no error out")
	return r
}

// ended waits for the admitted task to end.
func (w *world) wait(t *testing.T) task.Record {
	t.Helper()
	select {
	case rec := <-w.ended:
		return rec
	case <-time.After(waitFor):
		require.FailNow(t, "the task never ended")
		return task.Record{}
	}
}

func (w *world) effects() effects {
	w.snow.mu.Lock()
	defer w.snow.mu.Unlock()
	w.mu.Lock()
	notified := w.notified
	w.mu.Unlock()
	asked := map[string]int{}
	for k, v := range w.snow.asked {
		asked[k] = v
	}
	return effects{counted: w.counted(), lines: w.log.lines("snowluma-mcp call "), spent: 10 - w.meter.Snapshot().Account.Available,
		slotHeld: w.snow.slotHeld, notified: notified, asked: asked}
}

// since is what was spent between before and now.
func (e effects) since(before effects) effects {
	d := effects{counted: e.counted - before.counted, lines: e.lines - before.lines, spent: e.spent - before.spent,
		slotHeld: e.slotHeld - before.slotHeld, notified: e.notified - before.notified, asked: map[string]int{}}
	for k, v := range e.asked {
		if n := v - before.asked[k]; n != 0 {
			d.asked[k] = n
		}
	}
	return d
}

// TestBackgroundCallsSpendOnce runs every default stage, each with its
// real part, and a counting stage at every position of the order, for
// synchronous calls, admitted background calls and refused ones, and
// counts what each call spends and records: the counting stage's count,
// the call's log lines, the send budget, the stream slot, the requests that
// reach SnowLuma and the progress notifications the client gets. Every call
// that does its work counts once, whether it ran now or as a task; a
// refused admission is one call that does none (no task, nothing spent),
// recorded once like a synchronous call the same check refused, and
// answered with the refusal.
func TestBackgroundCallsSpendOnce(t *testing.T) {
	t.Parallel()
	cat := stagetest.Catalog()
	const (
		send     = `{"action":"send_group_msg","params":{"group_id":20001,"message":"hi"}}`
		download = `{"action":"download_file_stream","params":{"file":"a.bin"}}`
		history  = `{"action":"get_group_msg_history","params":{"group_id":20001}}`
		unknown  = `{"action":"no_such_action","params":{}}`
	)
	one := func(action string) map[string]int { return map[string]int{action: 1} }
	positions := len(stages.Places())
	gateAt := -1
	for i, s := range stages.Places() {
		if s.Name == "gate" {
			gateAt = i
		}
	}
	require.GreaterOrEqual(t, gateAt, 0)
	for pos := 0; pos <= positions; pos++ {
		t.Run(fmt.Sprintf("counting stage at position %d", pos), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, cat, pos)
			refusedSeen := 0
			if pos <= gateAt {
				refusedSeen = 1
			}
			calls := []struct {
				name       string
				background bool
				args       string
				want       effects
				withheld   bool
			}{
				{"a synchronous send", false, send, effects{counted: 1, lines: 1, spent: 1, asked: one("send_group_msg")}, false},
				{"a background send", true, send, effects{counted: 1, lines: 1, spent: 1, asked: one("send_group_msg")}, false},
				{"a background download", true, download, effects{counted: 1, lines: 1, slotHeld: 1, asked: one("download_file_stream")}, false},
				{"a background read of someone's words", true, history,
					effects{counted: 1, lines: 1, asked: map[string]int{"get_group_msg_history": 1, "get_login_info": 1}}, true},
				{"a second background read, the account known", true, history, effects{counted: 1, lines: 1, asked: one("get_group_msg_history")}, true},
				// A call the gate refuses is recorded once, in the same
				// place, whether it was synchronous or a background call's
				// admission: a counting stage outside the gate sees it, one
				// inside does not; nothing is spent.
				{"a synchronous refusal", false, unknown, effects{counted: refusedSeen, lines: 1, asked: map[string]int{}}, false},
				{"a refused admission", true, unknown, effects{counted: refusedSeen, lines: 1, asked: map[string]int{}}, false},
			}
			for _, c := range calls {
				before := w.effects()
				tool := w.run
				if c.background {
					tool = w.bg
				}
				var r *pipeline.Result
				var rec *task.Record
				if c.background {
					// Every slot is busy while the call is admitted:
					// admission takes none, and the task waits for it.
					release, err := w.pool.Acquire(context.Background(), nil)
					require.NoError(t, err)
					r = w.admit(t, tool, c.args)
					release()
					if r.Task != nil {
						ended := w.wait(t)
						rec = &ended
					}
				} else {
					r = w.admit(t, tool, c.args)
				}
				got := w.effects().since(before)
				assert.NotEmpty(t, r.Meta["traceparent"], "%s: the answer carries its traceparent", c.name)
				if c.background && c.args != unknown {
					require.NotNil(t, rec, "%s: admitted: %+v", c.name, r.Diagnostics)
					require.Equal(t, task.Completed, rec.Status, "%s: %s", c.name, rec.StatusMessage)
					assert.Zero(t, got.notified, "%s: a background call's progress goes to its task, never to the admission's client", c.name)
					if c.withheld {
						body, err := w.store.Result(*rec)
						require.NoError(t, err)
						assert.Equal(t, 1, strings.Count(string(body), `"withheld":"untrusted_author"`), "%s: filtered once: %s", c.name, body)
					}
				}
				if !c.background && c.args != unknown {
					assert.Equal(t, 1, got.notified, "%s: the client hears the call's progress", c.name)
				}
				if c.args == unknown {
					assert.Nil(t, r.Task, "refused: no task")
					assert.True(t, r.IsError)
				}
				got.notified = 0
				assert.Equal(t, c.want, got, "%s: spent once, by the work", c.name)
			}
		})
	}
}

// waitFor bounds waits that would otherwise hang on a broken build; it is
// never an assertion about speed.
const waitFor = 30 * time.Second

// TestABackgroundCallWithAnUnknownParamIsRefusedAtAdmission: the params
// stage is on the admission's chain, so a key SnowLuma would drop is
// refused before a task exists, with the name it was near, and nothing is
// asked of SnowLuma, spent or held.
func TestABackgroundCallWithAnUnknownParamIsRefusedAtAdmission(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	w := newWorld(t, cat, len(stages.Places()))
	before := w.effects()
	r := w.admit(t, w.bg, `{"action":"download_file_stream","params":{"fiel":"a.bin"}}`)
	assert.Nil(t, r.Task, "refused: no task")
	assert.True(t, r.IsError)
	assert.Contains(t, r.Diagnostics.Message, `"fiel" (did you mean file?)`)
	assert.Equal(t, "invalid_argument", r.Diagnostics.Kind)
	got := w.effects().since(before)
	assert.Empty(t, got.asked, "nothing reached SnowLuma")
	assert.Zero(t, got.spent)
	assert.Zero(t, got.slotHeld)
}

// targetArgs are the arguments of the test's tools: an action and its
// params, as invoke_action takes them.
type targetArgs struct {
	Action string        `json:"action"`
	Params schema.Object `json:"params,omitempty"`
}

func (a *targetArgs) Target() (string, json.RawMessage, bool) {
	return a.Action, json.RawMessage(a.Params), false
}
