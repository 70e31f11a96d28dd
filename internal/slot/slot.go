// Package slot bounds how many stream transfers run at once. It is one
// long-lived pool built at start and shared by every stream transfer,
// whether a tool call or a background task's run starts it, so both count
// against the same limit.
package slot

import (
	"context"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Pool hands out a fixed number of slots.
type Pool struct {
	slots chan struct{}
	wait  time.Duration
}

// NewPool returns a pool of n slots (at least one); Acquire waits at most
// wait for a free one.
func NewPool(n int, wait time.Duration) *Pool {
	return &Pool{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// Size is the number of slots.
func (p *Pool) Size() int { return cap(p.slots) }

// Acquire takes a slot and returns the function that gives it back. When
// every slot is busy, waiting (if not nil) hears it once before the wait
// begins, so a caller nobody watches (a background task) can say that it
// waits. Both failures happen before anything is sent, so they say so.
func (p *Pool) Acquire(ctx context.Context, waiting func()) (func(), error) {
	select {
	case p.slots <- struct{}{}:
		return p.release, nil
	default:
	}
	if waiting != nil {
		waiting()
	}
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case p.slots <- struct{}{}:
		return p.release, nil
	case <-ctx.Done():
		return nil, fault.Wrap(fault.CodeCancelled, ctx.Err(), "cancelled while waiting for a free stream slot; nothing was sent to SnowLuma").Unsent()
	case <-timer.C:
		return nil, fault.Errorf(fault.CodeLimit, "all %d stream slots stayed busy for %s, so the transfer never started and nothing was sent to SnowLuma", cap(p.slots), p.wait).Unsent()
	}
}

func (p *Pool) release() { <-p.slots }
