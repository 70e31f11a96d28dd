package progress

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

type report struct{ done, total int64 }

type sink struct {
	mu   sync.Mutex
	sent []report
	at   []time.Time
	err  error
}

func (s *sink) notify(ctx context.Context, done, total int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, report{done, total})
	s.at = append(s.at, time.Now())
	return s.err
}

func (s *sink) values() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int64
	for _, p := range s.sent {
		out = append(out, p.done)
	}
	return out
}

var tool = stagetest.Invoke

// watched is a transfer's call whose progress s hears.
func watched(s *sink) *pipeline.Call {
	c := stagetest.Call(tool, "download_file_stream", "")
	c.Notify = s.notify
	return c
}

func TestProgress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		wanted  bool // whether the call has a Notify
		reports []int64
		total   int64
		fail    bool
		sinkErr error
		want    []int64
		note    bool
	}{
		{"sends nothing when nobody asked for progress", false, []int64{1, 2, 3}, 10, false, nil, nil, false},
		{"sends the first value at once and leaves the last pending one to the result", true, []int64{1, 2, 3}, 10, false, nil, []int64{1}, false},
		{"never sends a value twice or backwards", true, []int64{5, 5, 4}, 0, false, nil, []int64{5}, false},
		{"never reports the known total as progress", true, []int64{10}, 10, false, nil, nil, false},
		{"never reports past the known total either", true, []int64{12}, 10, false, nil, nil, false},
		{"sends a count without a total, which is never complete", true, []int64{10}, 0, false, nil, []int64{10}, false},
		{"drops the pending value on failure", true, []int64{1, 2, 3}, 10, true, nil, []int64{1}, false},
		{"surfaces delivery failures", true, []int64{1}, 0, false, errors.New("pipe closed"), []int64{1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &sink{err: tt.sinkErr}
			h := New(time.Hour).Wrap(tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				require.NotNil(t, c.Progress, "handlers may always report")
				for _, r := range tt.reports {
					c.Progress(r, tt.total)
				}
				if tt.fail {
					return nil, errors.New("boom")
				}
				return &pipeline.Result{}, nil
			})
			c := watched(s)
			if !tt.wanted {
				c.Notify = nil
			}
			res, _ := h(context.Background(), c)
			assert.Equal(t, tt.want, s.values())
			for _, p := range s.sent {
				assert.Equal(t, tt.total, p.total, "total only when known")
			}
			if tt.note {
				assert.Contains(t, res.Diagnostics.Message, "progress notifications could not be delivered: pipe closed")
			} else if res != nil {
				assert.Empty(t, res.Diagnostics.Message)
			}
		})
	}
}

func TestProgressKeepsTheHandlersMessage(t *testing.T) {
	t.Parallel()
	s := &sink{err: errors.New("pipe closed")}
	h := New(time.Hour).Wrap(tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		c.Progress(1, 2)
		return &pipeline.Result{Diagnostics: pipeline.Diagnostics{Message: "async acknowledgement"}}, nil
	})
	res, err := h(context.Background(), watched(s))
	require.NoError(t, err)
	assert.Equal(t, "async acknowledgement; progress notifications could not be delivered: pipe closed", res.Diagnostics.Message)
}

func TestProgressSendsNothingAfterCancellation(t *testing.T) {
	t.Parallel()
	s := &sink{}
	ctx, cancel := context.WithCancel(context.Background())
	h := New(time.Hour).Wrap(tool, func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		c.Progress(1, 10)
		c.Progress(2, 10)
		cancel()
		return &pipeline.Result{}, nil
	})
	_, err := h(ctx, watched(s))
	require.NoError(t, err)
	assert.Equal(t, []int64{1}, s.values(), "the pending value is dropped once the call is cancelled")
}

// cadence runs a handler that reports 200 values, one every half
// millisecond, through a stage with the given interval.
func cadence(t *testing.T, interval time.Duration) (*sink, *pipeline.Call) {
	t.Helper()
	s := &sink{}
	var c *pipeline.Call
	h := New(interval).Wrap(tool, func(ctx context.Context, cc *pipeline.Call) (*pipeline.Result, error) {
		c = cc
		for i := int64(1); i <= 200; i++ {
			cc.Progress(i, 200)
			time.Sleep(time.Millisecond / 2)
		}
		return &pipeline.Result{}, nil
	})
	_, err := h(context.Background(), watched(s))
	require.NoError(t, err)
	return s, c
}

func TestProgressCadence(t *testing.T) {
	t.Parallel()
	const interval = 20 * time.Millisecond
	s, c := cadence(t, interval)
	vals := s.values()
	require.NotEmpty(t, vals)
	assert.Less(t, vals[len(vals)-1], int64(200), "the complete value is the result's to say, never a notification")
	for i := 1; i < len(vals); i++ {
		assert.Greater(t, vals[i], vals[i-1])
	}
	n := len(vals)
	c.Progress(500, 500)
	time.Sleep(3 * interval)
	assert.Len(t, s.values(), n, "nothing after completion")
}

// TestProgressAtMostOnePerInterval is the one timed check of the throttle:
// every gap between two sends is at least the interval. It measures a lower bound only, which a correct throttle meets
// however slow the machine.
func TestProgressAtMostOnePerInterval(t *testing.T) {
	t.Parallel()
	const interval = 20 * time.Millisecond
	s, _ := cadence(t, interval)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 1; i < len(s.at); i++ {
		assert.GreaterOrEqual(t, s.at[i].Sub(s.at[i-1]), interval-time.Millisecond, "at most one per interval")
	}
}
