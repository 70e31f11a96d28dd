package upload

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
)

// breakingLuma is fakeLuma with transport failures: the requests numbered
// in drop (1-based) never get an answer, the ones in refuse never connect.
type breakingLuma struct {
	*fakeLuma
	drop, refuse map[int]bool
	n            int
	resets       int // reset requests attempted, whatever became of them
}

func (b *breakingLuma) Stream(ctx context.Context, action string, params json.RawMessage) (frame.Body, error) {
	b.n++
	if strings.Contains(string(params), `"reset":true`) {
		b.resets++
	}
	switch {
	case b.refuse[b.n]:
		return nil, fault.Errorf(fault.CodeTransport, "cannot reach SnowLuma: connection refused").Unsent()
	case b.drop[b.n]:
		b.mu.Lock()
		var p map[string]any
		_ = json.Unmarshal(params, &p)
		b.requests = append(b.requests, p)
		b.mu.Unlock()
		return nil, fault.Errorf(fault.CodeTransport, "cannot reach SnowLuma: EOF")
	}
	return b.fakeLuma.Stream(ctx, action, params)
}

// TestSendReportsAFailedReset: when the reset after a failure does not get
// through, the original failure keeps its code and cause and its message
// says that SnowLuma still holds the stream; a reset that got its answer
// adds nothing; a stream SnowLuma never heard of is not reset at all.
func TestSendReportsAFailedReset(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	tests := []struct {
		name       string
		failAt     int // a failed frame for this request (fakeLuma)
		drop       []int
		refuse     []int
		wantCode   fault.Code // "" for SnowLuma's failure frame
		wantNote   bool
		wantReset  bool // a reset request was attempted
		wantUnsent bool
	}{
		{"a failed chunk whose reset is dropped", 2, []int{3}, nil, "", true, true, false},
		{"a failed chunk whose reset cannot connect", 2, nil, []int{3}, "", true, true, false},
		{"a dropped chunk whose reset is dropped too", 0, []int{2, 3}, nil, fault.CodeTransport, true, true, false},
		{"a dropped completion whose reset is dropped too", 0, []int{4, 5}, nil, fault.CodeTransport, true, true, false},
		{"a failed chunk whose reset is answered", 2, nil, nil, "", false, true, false},
		{"a refused later chunk, after chunks reached SnowLuma", 0, nil, []int{2}, fault.CodeTransport, false, true, false},
		{"a refused first chunk: nothing to reset", 0, nil, []int{1}, fault.CodeTransport, false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			luma := &breakingLuma{fakeLuma: &fakeLuma{failAt: tt.failAt}, drop: set(tt.drop), refuse: set(tt.refuse)}
			_, err := Send(context.Background(), luma, "hello.txt", Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: time.Second}, nil)
			require.Error(t, err)
			if tt.wantCode == "" {
				var failure *frame.Failure
				require.True(t, errors.As(err, &failure), "SnowLuma's failure frame is still the cause")
				assert.Equal(t, "disk full", failure.Frame.Wording)
				assert.True(t, strings.HasPrefix(err.Error(), failure.Error()), "the original message comes first")
			} else {
				assert.Equal(t, tt.wantCode, fault.CodeOf(err), "the original code is kept")
				assert.True(t, strings.HasPrefix(err.Error(), "cannot reach SnowLuma"), err.Error())
			}
			if tt.wantNote {
				assert.Contains(t, err.Error(), "the reset of upload stream "+luma.requests[0]["stream_id"].(string)+" also failed")
				assert.Contains(t, err.Error(), "SnowLuma keeps its partial chunks")
			} else {
				assert.NotContains(t, err.Error(), "reset")
			}
			assert.Equal(t, map[bool]int{true: 1, false: 0}[tt.wantReset], luma.resets, "one reset at most")
			assert.Equal(t, tt.wantUnsent, fault.NothingSent(err))
		})
	}
}

func TestSendCallsAnAnswerForAnotherStreamBroken(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	_, err := Send(context.Background(), strayLuma{}, "hello.txt", Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: time.Second}, nil)
	assert.Equal(t, fault.CodeStreamBroken, fault.CodeOf(err), err.Error())
}

// strayLuma acknowledges every chunk for a stream that is not the one sent.
type strayLuma struct{}

func (strayLuma) Stream(context.Context, string, json.RawMessage) (frame.Body, error) {
	f, err := frame.Parse([]byte(`{"status":"ok","retcode":0,"data":{"type":"stream","stream_id":"other","status":"chunk_received"}}`))
	if err != nil {
		return nil, err
	}
	return &body{frames: []*frame.Frame{f}}, nil
}

func set(ns []int) map[int]bool {
	m := map[int]bool{}
	for _, n := range ns {
		m[n] = true
	}
	return m
}
