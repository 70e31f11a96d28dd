package e2e

// Send pacing through the real binary: the budgets, waits and refusals are
// read from what the fake SnowLuma received (counts, order and spacing
// against the configured rates, with room for a busy machine), never from
// how long the test took.

import (
	"context"
	"regexp"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// paceEnv is write mode with the given send pace and wait bound. The
// account budget is kept out of the way unless a test sets it.
func paceEnv(pace, waitMS string) map[string]string {
	return with(writeEnv(), "SNOWLUMA_MCP_SEND_PACE", pace, "SNOWLUMA_MCP_SEND_WAIT_MS", waitMS)
}

// send is one send_group_msg (or other delivering action) call, tagged
// so that exactly its requests can be found at the fake.
type send struct {
	tag string
	res *mcp.CallToolResult
	err error
}

// sendArgs builds invoke_action arguments for action with params and a
// fresh tag.
func sendArgs(t *testing.T, action string, params map[string]any) (map[string]any, string) {
	tag := newTag(t)
	p := map[string]any{fake.Marker: "tag:" + tag}
	for k, v := range params {
		p[k] = v
	}
	return map[string]any{"action": action, "params": p}, tag
}

// sendNow makes one call and checks its result.
func (s *server) sendNow(t *testing.T, action string, params map[string]any, meta mcp.Meta) (toolResult, string) {
	t.Helper()
	args, tag := sendArgs(t, action, params)
	return s.call(t, "invoke_action", args, meta), tag
}

func group(id int) map[string]any { return map[string]any{"group_id": id, "message": "hi"} }

// TestABurstToOneGroupIsPacedThenRefused sends five messages to one group
// at once with a budget of 2 that refills every 2 s and a wait bound of
// 3 s: two go at once, one waits for the refill and goes 2 s after the
// first, and two are refused without reaching SnowLuma.
func TestABurstToOneGroupIsPacedThenRefused(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, paceEnv("target=2+1/2s,account=50+1/10ms", "3000"))
		sends := make([]send, 5)
		done := make(chan int)
		for i := range sends {
			args, tag := sendArgs(t, "send_group_msg", group(20001))
			sends[i].tag = tag
			go func() {
				sends[i].res, sends[i].err = s.callRaw(testCtx(t), "invoke_action", args, nil)
				done <- i
			}()
		}
		for range sends {
			<-done
		}
		var went []fake.Request
		var held []int64
		refused := 0
		for _, c := range sends {
			require.NoError(t, c.err)
			r := s.check(t, "invoke_action", c.res)
			reqs := snow.ByTag(c.tag)
			if r.IsError {
				refused++
				assert.Equal(t, "rate_limited", r.Diag.Kind)
				assert.Equal(t, "failed", r.Diag.Outcome, "a refused send was not sent")
				assert.Contains(t, r.Diag.Message, "group 20001's send budget is spent")
				assert.Contains(t, r.Diag.NextStep, "retry_after_ms")
				assert.Greater(t, r.Diag.RetryAfterMS, int64(3000), "refused only when the wait passes the bound")
				assert.LessOrEqual(t, r.Diag.RetryAfterMS, int64(4000), "two refills at most")
				assert.Empty(t, reqs, "a refused send never reaches SnowLuma")
				continue
			}
			assert.Equal(t, "success", r.Diag.Outcome)
			require.Len(t, reqs, 1)
			went = append(went, reqs[0])
			held = append(held, r.Diag.HeldMS)
		}
		assert.Equal(t, 2, refused)
		require.Len(t, went, 3)
		sort.Slice(held, func(i, j int) bool { return held[i] < held[j] })
		assert.Equal(t, []int64{0, 0}, held[:2], "the burst is not held")
		assert.Greater(t, held[2], int64(1000), "the third send waits for most of a refill")
		assert.LessOrEqual(t, held[2], int64(3000), "and never past the wait bound")
		sort.Slice(went, func(i, j int) bool { return went[i].Received.Before(went[j].Received) })
		gap := went[2].Received.Sub(went[0].Received)
		assert.Greater(t, gap, 1500*time.Millisecond, "the fake received the third send about one refill (2 s) after the first")
	})
}

// TestPacingKeepsTargetsApart exhausts one group's budget (2, refilling
// once a minute, no waiting) and then sends to another group and a user:
// neither is slowed, and get_runtime_info shows what is left.
func TestPacingKeepsTargetsApart(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, paceEnv("target=2+1/1m,account=50+1/10ms", "0"))
		for range 2 {
			r, _ := s.sendNow(t, "send_group_msg", group(20001), nil)
			require.False(t, r.IsError, r.Text)
		}
		r, tag := s.sendNow(t, "send_group_msg", group(20001), nil)
		require.True(t, r.IsError)
		assert.Equal(t, "rate_limited", r.Diag.Kind)
		assert.Greater(t, r.Diag.RetryAfterMS, int64(50000))
		assert.Empty(t, snow.ByTag(tag), "nothing was sent")
		for _, other := range []struct {
			action string
			params map[string]any
		}{
			{"send_group_msg", group(20002)}, {"send_group_msg", group(20002)},
			{"send_private_msg", map[string]any{"user_id": 10002, "message": "hi"}},
			{"send_msg", map[string]any{"user_id": 10002, "message": "hi"}},
		} {
			r, tag := s.sendNow(t, other.action, other.params, nil)
			require.False(t, r.IsError, "%s is not slowed by group 20001: %s", other.action, r.Text)
			assert.Zero(t, r.Diag.HeldMS)
			assert.Len(t, snow.ByTag(tag), 1)
		}
		var info struct {
			SendPace struct {
				Enabled      bool `json:"enabled"`
				TargetBudget struct {
					Burst         int   `json:"burst"`
					RefillEveryMS int64 `json:"refill_every_ms"`
				} `json:"target_budget"`
				MaxWaitMS     int64 `json:"max_wait_ms"`
				RecentTargets []struct {
					Budget     string `json:"budget"`
					Available  int    `json:"available"`
					NextFreeMS int64  `json:"next_free_ms"`
				} `json:"recent_targets"`
			} `json:"send_pace"`
		}
		s.call(t, "get_runtime_info", nil, nil).decodeResult(t, &info)
		p := info.SendPace
		assert.True(t, p.Enabled)
		assert.Equal(t, 2, p.TargetBudget.Burst)
		assert.Equal(t, int64(60000), p.TargetBudget.RefillEveryMS)
		assert.Zero(t, p.MaxWaitMS)
		left := map[string]int{}
		for _, tg := range p.RecentTargets {
			left[tg.Budget] = tg.Available
			assert.Greater(t, tg.NextFreeMS, int64(50000), tg.Budget)
		}
		assert.Equal(t, map[string]int{"group 20001": 0, "group 20002": 0, "user 10002": 0}, left)
	})
}

// TestPacingOffSendsAsBefore: with SNOWLUMA_MCP_SEND_PACE=off, eight sends
// to one group all go at once, as they did before pacing existed.
func TestPacingOffSendsAsBefore(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, paceEnv("off", "0"))
		for range 8 {
			r, tag := s.sendNow(t, "send_group_msg", group(20001), nil)
			require.False(t, r.IsError, r.Text)
			assert.Zero(t, r.Diag.HeldMS)
			assert.Len(t, snow.ByTag(tag), 1)
		}
		var info struct {
			SendPace map[string]any `json:"send_pace"`
		}
		s.call(t, "get_runtime_info", nil, nil).decodeResult(t, &info)
		assert.Equal(t, false, info.SendPace["enabled"])
		assert.Len(t, info.SendPace, 2, "enabled, and where its sends are recorded: %v", info.SendPace)
		assert.Contains(t, info.SendPace["shared"], "note")
	})
}

// TestAWaitingSendTellsTheClientWhy: a client that gave a progress token
// hears why its send waits and for how long, and the result says how long
// it was held.
func TestAWaitingSendTellsTheClientWhy(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s, log := startWithProgress(t, version, paceEnv("target=1+1/1500ms,account=50+1/10ms", "5000"))
		first, _ := s.sendNow(t, "send_group_msg", group(20001), nil)
		require.False(t, first.IsError, first.Text)
		token := "pace-" + newTag(t)
		r, tag := s.sendNow(t, "send_group_msg", group(20001), mcp.Meta{"progressToken": token})
		require.False(t, r.IsError, r.Text)
		assert.Len(t, snow.ByTag(tag), 1)
		assert.Greater(t, r.Diag.HeldMS, int64(700), "held for most of the 1.5 s refill")
		assert.LessOrEqual(t, r.Diag.HeldMS, int64(5000), "and never past the wait bound")
		require.Eventually(t, func() bool { return len(log.of(token)) > 0 }, safety, 5*time.Millisecond, "no notification arrived")
		items := log.of(token)
		require.Len(t, items, 1)
		assert.Regexp(t, regexp.MustCompile(`^waiting [01]\.\d s for group 20001's send budget$`), items[0].message)
	})
}

// TestCancellingAWaitingSendSendsNothing cancels a send while it waits for
// its budget: SnowLuma never hears of it.
func TestCancellingAWaitingSendSendsNothing(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s, log := startWithProgress(t, version, paceEnv("target=1+1/1m,account=50+1/10ms", "600000"))
		first, _ := s.sendNow(t, "send_group_msg", group(20001), nil)
		require.False(t, first.IsError, first.Text)
		token := "pace-" + newTag(t)
		args, tag := sendArgs(t, "send_group_msg", group(20001))
		ctx, cancel := context.WithCancel(testCtx(t))
		done := make(chan error, 1)
		go func() {
			_, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: "invoke_action", Arguments: args, Meta: mcp.Meta{"progressToken": token}})
			done <- err
		}()
		require.Eventually(t, func() bool { return len(log.of(token)) > 0 }, safety, 5*time.Millisecond, "the send never said it waits")
		cancel()
		require.Error(t, <-done)
		// The server is still serving, and the cancelled send never left.
		r := s.call(t, "get_runtime_info", nil, nil)
		require.False(t, r.IsError)
		assert.Empty(t, snow.ByTag(tag), "a send cancelled while it waited reached SnowLuma")
	})
}

// TestGetActionShowsWhereAnActionDelivers: the catalog's delivers
// declaration is part of the contract get_action returns, including that
// set_group_reaction must name its group to be paced.
func TestGetActionShowsWhereAnActionDelivers(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		var send, read, reaction struct {
			Delivers *struct {
				Targets   []map[string]string `json:"targets"`
				ChatParam string              `json:"chat_param"`
				Required  bool                `json:"required"`
			} `json:"delivers"`
		}
		s.call(t, "get_action", map[string]any{"name": "send_msg"}, nil).decodeResult(t, &send)
		require.NotNil(t, send.Delivers)
		assert.Equal(t, []map[string]string{{"param": "group_id", "chat": "group"}, {"param": "user_id", "chat": "user"}}, send.Delivers.Targets)
		assert.Equal(t, "message_type", send.Delivers.ChatParam, "message_type picks the kind of chat first")
		s.call(t, "get_action", map[string]any{"name": "set_group_reaction"}, nil).decodeResult(t, &reaction)
		require.NotNil(t, reaction.Delivers)
		assert.True(t, reaction.Delivers.Required, "the agent sees that pacing needs group_id")
		s.call(t, "get_action", map[string]any{"name": "get_status"}, nil).decodeResult(t, &read)
		assert.Nil(t, read.Delivers, "a read delivers nothing")
	})
}
