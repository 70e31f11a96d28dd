package checkup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
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
		r.add(Item{Name: "events", Status: Skip, Detail: r.say(lang.Text{EN: "SNOWLUMA_MCP_EVENTS_URL is not set: no live events",
			ZH: "没有设置 SNOWLUMA_MCP_EVENTS_URL：没有实时事件"})})
		return
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	conn, err := hub.WebSocket(cfg.EventsURL, cfg.EventsToken, hub.DefaultLimits.Frame)(ctx)
	if err != nil {
		r.add(r.eventFailure(cfg, err))
		return
	}
	frame, err := firstFrame(ctx, conn)
	_ = conn.Close()
	if err != nil {
		r.add(r.eventFailure(cfg, err))
		return
	}
	g, err := event.Decode(frame)
	if err != nil || g.Kind != event.KindMeta || g.MetaType != "lifecycle" || g.SubType != "connect" {
		r.add(Item{Name: "events", Status: Fail,
			Detail: r.say(lang.Text{EN: "the first frame at SNOWLUMA_MCP_EVENTS_URL is not SnowLuma's lifecycle \"connect\" event",
				ZH: "SNOWLUMA_MCP_EVENTS_URL 上的第一帧不是 SnowLuma 的 lifecycle“connect”事件"}),
			Fix: r.say(lang.Text{EN: "point SNOWLUMA_MCP_EVENTS_URL at SnowLuma's WebSocket server (3001 by default) with role Universal or Event",
				ZH: "让 SNOWLUMA_MCP_EVENTS_URL 指向 SnowLuma 的 WS 服务端节点（默认端口 3001），其角色须为 Universal 或 Event"})})
		return
	}
	if account != 0 && g.SelfID != account {
		r.add(Item{Name: "events", Status: Fail,
			Detail: r.say(lang.Text{EN: fmt.Sprintf("the event connection serves account %d, the endpoint account %d", g.SelfID, account),
				ZH: fmt.Sprintf("事件连接服务的是账号 %d，endpoint 服务的是账号 %d", g.SelfID, account)}),
			Fix: r.say(lang.Text{EN: "point SNOWLUMA_MCP_EVENTS_URL and SNOWLUMA_MCP_ENDPOINT at the same SnowLuma account",
				ZH: "让 SNOWLUMA_MCP_EVENTS_URL 和 SNOWLUMA_MCP_ENDPOINT 指向同一个 SnowLuma 账号"})})
		return
	}
	r.add(Item{Name: "events", Status: OK, Detail: r.say(lang.Text{
		EN: fmt.Sprintf("the WebSocket server accepts %s and greets for account %d", cfg.EventsTokenFrom, g.SelfID),
		ZH: fmt.Sprintf("WS 服务端节点接受 %s，并以账号 %d 打招呼", cfg.EventsTokenFrom, g.SelfID)})})
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
	next = strings.Replace(next, ", then subscribe again.", again.EN+".", 1)
	next = strings.Replace(next, " then subscribe again.", again.EN[2:]+".", 1)
	return strings.Replace(next, " Then subscribe again.", " Then r"+again.EN[3:]+".", 1)
}

// wsToken is where the WS 服务端 node's Token is, in both languages.
var wsToken = lang.Text{EN: webui.InWebUI(webui.NodeWS, webui.FieldToken), ZH: webui.InWebUIZH(webui.NodeWS, webui.FieldToken)}

// eventsFixZH is the fix in Chinese of an event connection that failed
// for another reason than its token: the hub's English next step names
// the setting, and this where to find it.
var eventsFixZH = "检查 SnowLuma 的 WS 服务端节点在运行，且 SNOWLUMA_MCP_EVENTS_URL 的端口和路径就是它的（" +
	webui.InWebUIZH(webui.NodeWS, webui.FieldPort) + "和「" + webui.FieldPath + "」；默认端口 3001）" + again.ZH

// eventFailure words a failed dial or read with the hub's own words.
func (r *Report) eventFailure(cfg *config.Config, err error) Item {
	var f *hub.Failure
	if errors.As(err, &f) {
		detail := lang.Text{EN: f.Message, ZH: "事件连接失败（" + f.Message + "）"}
		if f.Reason == hub.ReasonAuthRefused {
			detail.ZH = "SnowLuma 拒绝了事件连接的 Token（" + f.Message + "）"
			if p := pasted(cfg.EventsTokenFrom, cfg.EventsToken); p != nil {
				return Item{Name: "events", Status: Fail, Detail: r.say(lang.Text{EN: detail.EN + p.what.EN, ZH: detail.ZH + p.what.ZH}), Fix: r.say(p.fix)}
			}
			// The same words as subscribe_events' next step: the WS
			// node's own variable, never the HTTP node's.
			return Item{Name: "events", Status: Fail, Detail: r.say(detail),
				Fix: r.say(lang.Text{EN: hub.TokenFix + " in this server's entry in the MCP host (" + wsToken.EN + ")" + again.EN,
					ZH: "在 MCP 宿主里本服务器的条目中，把 SNOWLUMA_MCP_EVENTS_TOKEN 设为 WS 服务端节点的授权 Token（" + wsToken.ZH + "；或给两个节点设置相同的 Token）" + again.ZH})}
		}
		// A subscription's advice to release its resources does not
		// apply: the check holds none.
		return Item{Name: "events", Status: Fail, Detail: r.say(detail), Fix: r.say(lang.Text{EN: forPerson(f.NextStep), ZH: eventsFixZH})}
	}
	return Item{Name: "events", Status: Fail, Detail: r.say(lang.Text{EN: err.Error(), ZH: "事件连接失败（" + err.Error() + "）"}),
		Fix: r.say(lang.Text{EN: "check that SnowLuma's WebSocket server runs and SNOWLUMA_MCP_EVENTS_URL points at it", ZH: eventsFixZH})}
}
