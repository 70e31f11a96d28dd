package slot

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

func TestPool(t *testing.T) {
	t.Parallel()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		code fault.Code
	}{
		{"fails with limit when no slot frees in time", context.Background(), fault.CodeLimit},
		{"fails as cancelled when the caller gives up", cancelled, fault.CodeCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := NewPool(1, 20*time.Millisecond)
			release, err := p.Acquire(context.Background(), func() { t.Error("a free slot needs no wait") })
			require.NoError(t, err)
			defer release()
			waits := 0
			_, err = p.Acquire(tt.ctx, func() { waits++ })
			assert.Equal(t, tt.code, fault.CodeOf(err))
			assert.True(t, fault.NothingSent(err), "nothing reached SnowLuma while waiting")
			assert.Contains(t, err.Error(), "nothing was sent to SnowLuma")
			assert.Equal(t, 1, waits, "the wait is announced once, before it begins")
		})
	}
}

func TestPoolSlotFreesOnRelease(t *testing.T) {
	t.Parallel()
	p := NewPool(0, time.Second)
	assert.Equal(t, 1, p.Size(), "a pool always has a slot")
	release, err := p.Acquire(context.Background(), nil)
	require.NoError(t, err)
	release()
	again, err := p.Acquire(context.Background(), nil)
	require.NoError(t, err, "a released slot can be taken again")
	again()
}
