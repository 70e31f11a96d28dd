// Package budgettest provides a manual clock for the tests of the pacing
// budgets and the stage that spends them: time moves only when a test
// says, so refills, bursts and waits are exact and no test sleeps.
package budgettest

import (
	"context"
	"sync"
	"time"
)

// Clock is a budget.Clock that moves only on Advance.
type Clock struct {
	mu       sync.Mutex
	now      time.Time
	sleepers []*sleeper
	asleep   chan struct{} // signalled whenever someone starts sleeping
}

type sleeper struct {
	until time.Time
	wake  chan struct{}
}

// New returns a clock at a fixed instant.
func New() *Clock {
	return &Clock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC), asleep: make(chan struct{}, 1024)}
}

// Now implements budget.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep implements budget.Clock: it returns once Advance has moved the clock
// d past now, or when ctx ends.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	s := &sleeper{until: c.now.Add(d), wake: make(chan struct{})}
	if d <= 0 {
		c.mu.Unlock()
		return nil
	}
	c.sleepers = append(c.sleepers, s)
	c.mu.Unlock()
	c.asleep <- struct{}{}
	select {
	case <-s.wake:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Advance moves the clock on by d and wakes every sleeper whose time came.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.sleepers[:0]
	for _, s := range c.sleepers {
		if c.now.Before(s.until) {
			kept = append(kept, s)
			continue
		}
		close(s.wake)
	}
	c.sleepers = kept
}

// WaitForSleepers blocks until n more calls of Sleep have started since the
// last time it returned (or ctx ends), so a test advances time only once
// the waiters are waiting.
func (c *Clock) WaitForSleepers(ctx context.Context, n int) error {
	for range n {
		select {
		case <-c.asleep:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
