package prompt

import (
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is an adjustable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

const args = `{"action":"send_group_msg","params":{"group_id":123456789}}`

func TestStateLifecycle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(s *Store, c *clock, state string) (string, string, string) // state, tool, args
		err    error
	}{
		{"accepts its own state once", func(s *Store, c *clock, st string) (string, string, string) {
			return st, "invoke_action_with_input", args
		}, nil},
		{"accepts re-encoded arguments", func(s *Store, c *clock, st string) (string, string, string) {
			return st, "invoke_action_with_input", `{ "params" : {"group_id":123456789}, "action":"send_group_msg"}`
		}, nil},
		{"refuses a tampered payload", func(s *Store, c *clock, st string) (string, string, string) {
			return "x" + st, "invoke_action_with_input", args
		}, ErrStateInvalid},
		{"refuses a tampered signature", func(s *Store, c *clock, st string) (string, string, string) {
			return st[:len(st)-2] + "AA", "invoke_action_with_input", args
		}, ErrStateInvalid},
		{"refuses a state from another run", func(s *Store, c *clock, st string) (string, string, string) {
			other := NewStore(c.now)
			foreign, _ := other.Issue("invoke_action_with_input", json.RawMessage(args), []string{"message"})
			return foreign, "invoke_action_with_input", args
		}, ErrStateInvalid},
		{"refuses an expired state", func(s *Store, c *clock, st string) (string, string, string) {
			c.add(Lifetime)
			return st, "invoke_action_with_input", args
		}, ErrStateExpired},
		{"refuses another tool", func(s *Store, c *clock, st string) (string, string, string) {
			return st, "query_action_with_input", args
		}, ErrStateMismatch},
		{"refuses other arguments", func(s *Store, c *clock, st string) (string, string, string) {
			return st, "invoke_action_with_input", `{"action":"send_group_msg","params":{"group_id":987654321}}`
		}, ErrStateMismatch},
		{"refuses garbage", func(s *Store, c *clock, st string) (string, string, string) {
			return "not-a-state", "invoke_action_with_input", args
		}, ErrStateInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &clock{t: time.Unix(1_700_000_000, 0)}
			s := NewStore(c.now)
			state, err := s.Issue("invoke_action_with_input", json.RawMessage(args), []string{"message"})
			require.NoError(t, err)
			st, tool, a := tt.mutate(s, c, state)
			missing, err := s.Consume(st, tool, json.RawMessage(a))
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{"message"}, missing)
			_, err = s.Consume(st, tool, json.RawMessage(a))
			assert.ErrorIs(t, err, ErrStateUsed, "a state is consumed once")
		})
	}
}

func TestConcurrentResumesRunAtMostOnce(t *testing.T) {
	t.Parallel()
	s := NewStore(time.Now)
	state, err := s.Issue("invoke_action_with_input", json.RawMessage(args), []string{"message"})
	require.NoError(t, err)
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Consume(state, "invoke_action_with_input", json.RawMessage(args)); err == nil {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), wins.Load())
}

func TestPendingPromptsAreBounded(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	s := NewStore(c.now)
	for i := 0; i < MaxPending; i++ {
		_, err := s.Issue("t", json.RawMessage(`{}`), []string{"x"})
		require.NoError(t, err)
	}
	_, err := s.Issue("t", json.RawMessage(`{}`), []string{"x"})
	assert.ErrorIs(t, err, ErrTooMany)
	c.add(Lifetime)
	_, err = s.Issue("t", json.RawMessage(`{}`), []string{"x"})
	assert.NoError(t, err, "expired prompts free their places")
}

// FuzzVerify feeds arbitrary states: none may panic, and none but the
// store's own may verify.
func FuzzVerify(f *testing.F) {
	s := NewStore(time.Now)
	good, _ := s.Issue("t", json.RawMessage(`{}`), []string{"x"})
	f.Add(good)
	f.Add("")
	f.Add(".")
	f.Add("eyJuIjoiMSJ9.AAAA")
	f.Add(strings.Repeat("A", 300) + "." + strings.Repeat("B", 43))
	f.Fuzz(func(t *testing.T, state string) {
		_, err := s.Verify(state)
		if err == nil {
			require.Equal(t, good, state, "only the issued state verifies")
		}
	})
}
