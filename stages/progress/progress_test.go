package progress

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

type sink struct {
	mu   sync.Mutex
	sent []*mcp.ProgressNotificationParams
	at   []time.Time
	err  error
}

func (s *sink) notify(ctx context.Context, c *pipeline.Call, p *mcp.ProgressNotificationParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, p)
	s.at = append(s.at, time.Now())
	return s.err
}

func (s *sink) values() []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []float64
	for _, p := range s.sent {
		out = append(out, p.Progress)
	}
	return out
}

func call(token any) *pipeline.Call {
	meta := mcp.Meta{}
	if token != nil {
		meta["progressToken"] = token
	}
	return &pipeline.Call{Tool: &pipeline.Tool{Name: "invoke_action"}, Request: &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta}}}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		token   any
		reports []int64
		total   int64
		fail    bool
		sinkErr error
		want    []float64
		note    bool
	}{
		{"sends nothing without a token", nil, []int64{1, 2, 3}, 10, false, nil, nil, false},
		{"sends the first value and the last pending one", "t1", []int64{1, 2, 3}, 10, false, nil, []float64{1, 3}, false},
		{"never sends a value twice or backwards", 7, []int64{5, 5, 4, 6}, 0, false, nil, []float64{5, 6}, false},
		{"drops the pending value on failure", "t2", []int64{1, 2, 3}, 10, true, nil, []float64{1}, false},
		{"surfaces delivery failures", "t3", []int64{1}, 0, false, errors.New("pipe closed"), []float64{1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &sink{err: tt.sinkErr}
			h := New(time.Hour, s.notify).Wrap(func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				for _, r := range tt.reports {
					c.Progress(r, tt.total)
				}
				if tt.fail {
					return nil, errors.New("boom")
				}
				return &pipeline.Result{}, nil
			})
			res, _ := h(context.Background(), call(tt.token))
			assert.Equal(t, tt.want, s.values())
			for _, p := range s.sent {
				assert.Equal(t, tt.token, p.ProgressToken)
				assert.Equal(t, float64(tt.total), p.Total, "total only when known")
			}
			if tt.note {
				assert.Contains(t, res.Diagnostics.Message, "progress notifications could not be delivered: pipe closed")
			}
		})
	}
}

func TestProgressCadence(t *testing.T) {
	t.Parallel()
	s := &sink{}
	const interval = 20 * time.Millisecond
	var c *pipeline.Call
	h := New(interval, s.notify).Wrap(func(ctx context.Context, cc *pipeline.Call) (*pipeline.Result, error) {
		c = cc
		for i := int64(1); i <= 200; i++ {
			cc.Progress(i, 200)
			time.Sleep(time.Millisecond / 2)
		}
		return &pipeline.Result{}, nil
	})
	_, err := h(context.Background(), call("cadence"))
	require.NoError(t, err)
	vals := s.values()
	require.NotEmpty(t, vals)
	assert.Equal(t, 200.0, vals[len(vals)-1], "the final value is delivered before the result")
	for i := 1; i < len(vals); i++ {
		assert.Greater(t, vals[i], vals[i-1])
	}
	for i := 1; i < len(s.at)-1; i++ {
		assert.GreaterOrEqual(t, s.at[i].Sub(s.at[i-1]), interval-time.Millisecond, "at most one per interval")
	}
	n := len(vals)
	c.Progress(500, 500)
	time.Sleep(3 * interval)
	assert.Len(t, s.values(), n, "nothing after completion")
}
