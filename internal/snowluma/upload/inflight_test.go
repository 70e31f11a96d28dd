package upload

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
)

// laggingLuma is fakeLuma with the real SnowLuma's behaviour for a request
// whose body it has read: it finishes it whether or not the client is still
// there. Its request number hold (1-based) is processed only once release
// is closed; the client side returns as an HTTP client does, when the
// answer comes or its context ends. processed lists what SnowLuma did, in
// the order it did it.
type laggingLuma struct {
	*fakeLuma
	hold    int
	arrived chan struct{}
	release chan struct{}

	mu        sync.Mutex
	n         int
	processed []string
}

func (l *laggingLuma) Stream(ctx context.Context, action string, params json.RawMessage) (frame.Body, error) {
	l.mu.Lock()
	l.n++
	n := l.n
	l.mu.Unlock()
	type answer struct {
		b   frame.Body
		err error
	}
	done := make(chan answer, 1)
	go func() {
		if n == l.hold {
			close(l.arrived)
			<-l.release
		}
		b, err := l.fakeLuma.Stream(context.Background(), action, params)
		var p map[string]any
		_ = json.Unmarshal(params, &p)
		l.mu.Lock()
		if p["reset"] == true {
			l.processed = append(l.processed, "reset")
		} else {
			l.processed = append(l.processed, fmt.Sprintf("request %d", n))
		}
		l.mu.Unlock()
		done <- answer{b, err}
	}()
	select {
	case a := <-done:
		return a.b, a.err
	case <-ctx.Done():
		return nil, fault.Wrap(fault.CodeCancelled, ctx.Err(), "call cancelled")
	}
}

// recorder is a Tracker that remembers what it was told.
type recorder struct {
	mu      sync.Mutex
	streams []string
	resets  []error
	refuse  error
}

func (r *recorder) Stream(id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streams = append(r.streams, id)
	return r.refuse
}

func (r *recorder) Reset(_ string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resets = append(r.resets, err)
}

// TestACancelWaitsForTheChunkInFlightBeforeTheReset: cancelled while
// SnowLuma still works on a chunk, the upload lets that request finish
// before it sends the reset, so the reset is the last thing SnowLuma does
// and the stream cannot be created again behind it.
func TestACancelWaitsForTheChunkInFlightBeforeTheReset(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	luma := &laggingLuma{fakeLuma: &fakeLuma{}, hold: 2, arrived: make(chan struct{}), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	track := &recorder{}
	errs := make(chan error, 1)
	go func() {
		_, err := Send(ctx, luma, "hello.txt", Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: 30 * time.Second, Track: track}, nil)
		errs <- err
	}()
	<-luma.arrived
	cancel()
	// SnowLuma is still on the chunk; let it finish a moment later.
	time.AfterFunc(50*time.Millisecond, func() { close(luma.release) })
	err := <-errs
	require.Error(t, err)
	assert.Equal(t, fault.CodeCancelled, fault.CodeOf(err))
	luma.mu.Lock()
	defer luma.mu.Unlock()
	assert.Equal(t, []string{"request 1", "request 2", "reset"}, luma.processed, "the reset comes after the chunk in flight, and nothing more is sent")
	require.Len(t, track.streams, 1)
	assert.Equal(t, luma.requests[0]["stream_id"], track.streams[0])
	assert.Equal(t, []error{nil}, track.resets, "the tracker hears that the reset reached SnowLuma")
}

// TestTheWaitForAChunkInFlightIsBounded: a chunk SnowLuma never answers
// holds the reset back only for ResetTimeout.
func TestTheWaitForAChunkInFlightIsBounded(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	luma := &laggingLuma{fakeLuma: &fakeLuma{}, hold: 2, arrived: make(chan struct{}), release: make(chan struct{})}
	defer close(luma.release)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := Send(ctx, luma, "hello.txt", Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: 100 * time.Millisecond}, nil)
		errs <- err
	}()
	<-luma.arrived
	cancel()
	select {
	case err := <-errs:
		assert.Equal(t, fault.CodeCancelled, fault.CodeOf(err))
	case <-time.After(30 * time.Second):
		require.FailNow(t, "the upload waited for the held chunk without a bound")
	}
	luma.mu.Lock()
	defer luma.mu.Unlock()
	assert.Equal(t, []string{"request 1", "reset"}, luma.processed, "the reset was sent once the wait ran out")
}

func TestAnUploadWhoseStreamCannotBeRecordedSendsNothing(t *testing.T) {
	t.Parallel()
	root, _ := setup(t)
	luma := &fakeLuma{}
	_, err := Send(context.Background(), luma, "hello.txt", Options{Root: root, ChunkBytes: 4, MaxFile: 100, ResetTimeout: time.Second,
		Track: &recorder{refuse: fmt.Errorf("disk full")}}, nil)
	require.Error(t, err)
	assert.True(t, fault.NothingSent(err))
	assert.Contains(t, err.Error(), "nothing was sent to SnowLuma")
	assert.Empty(t, luma.requests)
}
