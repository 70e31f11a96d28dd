package e2e

// Live event updates through @modelcontextprotocol/client 2.4.0 in its
// three negotiation modes (events.mjs): a 2026-07-28 client listens with
// resourceSubscriptions, a legacy one calls resources/subscribe; both get
// notifications/resources/updated for events the fake pushes, and read
// them from the resource.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// eventsReport is events.mjs's report.
type eventsReport struct {
	negotiatedReport
	URI           string `json:"uri"`
	HonoredFilter *struct {
		ResourceSubscriptions []string `json:"resourceSubscriptions"`
	} `json:"honoredFilter"`
	Update struct {
		URI  string                     `json:"uri"`
		Meta map[string]json.RawMessage `json:"_meta"`
	} `json:"update"`
	Events         []string `json:"events"`
	Closed         string   `json:"closed"`
	ListedAfterEnd bool     `json:"listedAfterEnd"`
	Released       *struct {
		Released  bool `json:"released"`
		Remaining int  `json:"remaining"`
	} `json:"released"`
}

func TestInteropClientGetsEventUpdates(t *testing.T) {
	t.Parallel()
	forEachEra(t, func(t *testing.T, era string) {
		sc := snow.Scene(fake.SceneOptions{})
		run := startClient(t, "events.mjs", era, eventsEnv(sc), map[string]any{"selfId": self})
		peer, err := sc.Next(testCtx(t))
		require.NoError(t, err, "subscribe_events never connected; client stderr:\n%s", run.stderr)
		// The client subscribes after the resource exists and the script
		// cannot tell the fake when: push until the connection ends (the
		// resource's release closes it) or the test gives up.
		ctx, stop := context.WithCancel(testCtx(t))
		pushed := make(chan struct{})
		go func() {
			defer close(pushed)
			tick := time.NewTicker(pollEvery)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-peer.Done():
					return
				case <-tick.C:
					sc.Push(fake.GroupMessage(self, 20001, 30001, "ping"))
				}
			}
		}()
		var got eventsReport
		run.finish(&got)
		stop()
		<-pushed
		got.assertNegotiated(t, era)

		require.True(t, strings.HasPrefix(got.URI, "snowluma://onebot/events/"), got.URI)
		assert.Equal(t, got.URI, got.Update.URI, "the update names the event resource")
		require.NotEmpty(t, got.Events, "the read after the update has the pushed events")
		for _, e := range got.Events {
			assert.Equal(t, "ping", e)
		}
		if era == "legacy" {
			assert.Nil(t, got.HonoredFilter)
			assert.False(t, got.ListedAfterEnd, "resources/unsubscribe released the resource")
		} else {
			require.NotNil(t, got.HonoredFilter, "the listen was acknowledged")
			assert.Equal(t, []string{got.URI}, got.HonoredFilter.ResourceSubscriptions)
			assert.Contains(t, got.Update.Meta, "io.modelcontextprotocol/subscriptionId", "the update came on the listen")
			assert.Equal(t, "local", got.Closed, "the client closed the listen itself")
			assert.True(t, got.ListedAfterEnd, "closing a listen keeps the resource")
			require.NotNil(t, got.Released)
			assert.True(t, got.Released.Released)
			assert.Zero(t, got.Released.Remaining)
		}
		select {
		case <-peer.Done():
		case <-testCtx(t).Done():
			require.FailNow(t, "releasing the last event resource must close the WebSocket")
		}
	})
}
