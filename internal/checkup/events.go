package checkup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

// events opens the event WebSocket as a subscription would, with the
// token in its header, reads its first frame, and closes it. SnowLuma
// greets every new connection with lifecycle "connect" for the account it
// is logged in to; account is that account when the endpoint check found
// it (0 otherwise).
func (r *Report) events(ctx context.Context, cfg *config.Config, account int64, wait time.Duration) {
	if cfg.Off(config.EventsVar) != nil {
		return // the finding is the item
	}
	if cfg.EventsURL == nil {
		r.add(Item{Name: "events", Status: Skip, Detail: "SNOWLUMA_MCP_EVENTS_URL is not set: no live events"})
		return
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	conn, err := hub.WebSocket(cfg.EventsURL, cfg.EventsToken, hub.DefaultLimits.Frame)(ctx)
	if err != nil {
		r.add(eventFailure(err))
		return
	}
	frame, err := firstFrame(ctx, conn)
	_ = conn.Close()
	if err != nil {
		r.add(eventFailure(err))
		return
	}
	g, err := event.Decode(frame)
	if err != nil || g.Kind != event.KindMeta || g.MetaType != "lifecycle" || g.SubType != "connect" {
		r.add(Item{Name: "events", Status: Fail, Detail: "the first frame at SNOWLUMA_MCP_EVENTS_URL is not SnowLuma's lifecycle \"connect\" event",
			Fix: "point SNOWLUMA_MCP_EVENTS_URL at SnowLuma's WebSocket server (3001 by default) with role Universal or Event"})
		return
	}
	if account != 0 && g.SelfID != account {
		r.add(Item{Name: "events", Status: Fail,
			Detail: fmt.Sprintf("the event connection serves account %d, the endpoint account %d", g.SelfID, account),
			Fix:    "point SNOWLUMA_MCP_EVENTS_URL and SNOWLUMA_MCP_ENDPOINT at the same SnowLuma account"})
		return
	}
	r.add(Item{Name: "events", Status: OK, Detail: fmt.Sprintf("the WebSocket server accepts %s and greets for account %d", cfg.EventsTokenFrom, g.SelfID)})
}

// firstFrame reads one frame, or gives up when ctx ends (closing the
// connection is what unblocks the read then).
func firstFrame(ctx context.Context, conn hub.Conn) ([]byte, error) {
	type read struct {
		frame []byte
		err   error
	}
	done := make(chan read, 1)
	go func() {
		f, err := conn.Read()
		done <- read{f, err}
	}()
	select {
	case got := <-done:
		return got.frame, got.err
	case <-ctx.Done():
		_ = conn.Close()
		return nil, errors.New("the event connection sent nothing in time; SnowLuma greets every new connection at once")
	}
}

// forPerson turns the hub's next step, written for an agent holding a
// subscription, into one for the person at the terminal: the check holds
// no resource to release, and what follows a changed setting is a
// restart of the server, not a new subscription.
func forPerson(next string) string {
	next = strings.TrimSuffix(next, hub.ReleaseAdvice)
	next = strings.Replace(next, ", then subscribe again.", again+".", 1)
	next = strings.Replace(next, " then subscribe again.", again[2:]+".", 1)
	return strings.Replace(next, " Then subscribe again.", " Then r"+again[3:]+".", 1)
}

// eventFailure words a failed dial or read with the hub's own words.
func eventFailure(err error) Item {
	var f *hub.Failure
	if errors.As(err, &f) {
		if f.Reason == hub.ReasonAuthRefused {
			// The same words as subscribe_events' next step: the WS
			// node's own variable, never the HTTP node's.
			return Item{Name: "events", Status: Fail, Detail: f.Message,
				Fix: hub.TokenFix + " in this server's entry in the MCP host (" + onebot.InWebUI(onebot.NodeWS, onebot.FieldToken) + ")" + again}
		}
		// A subscription's advice to release its resources does not
		// apply: the check holds none.
		return Item{Name: "events", Status: Fail, Detail: f.Message, Fix: forPerson(f.NextStep)}
	}
	return Item{Name: "events", Status: Fail, Detail: err.Error(),
		Fix: "check that SnowLuma's WebSocket server runs and SNOWLUMA_MCP_EVENTS_URL points at it"}
}
