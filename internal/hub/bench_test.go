package hub

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/event"
)

// BenchmarkIngest16Filtered measures events taken in per second from a
// loopback WebSocket (gorilla on both ends, as in production) into 16
// resources, each filtering on its own group, with SnowLuma-shaped group
// messages of about 450 bytes. Metric: events/s.
func BenchmarkIngest16Filtered(b *testing.B) {
	frames := make([][]byte, 16)
	for i := range frames {
		frames[i] = []byte(fmt.Sprintf(`{"time":1764664201,"self_id":10001,"post_type":"message","message_type":"group","sub_type":"normal","message_id":2137770485,"message_seq":12345,"group_id":%d,"user_id":10002,"message":[{"type":"text","data":{"text":"hello from a busy group, message body of ordinary length"}}],"raw_message":"hello from a busy group, message body of ordinary length","font":0,"sender":{"user_id":10002,"nickname":"Alice","card":"","role":"member","sex":"unknown","age":0},"anonymous":null}`, 20000+i))
	}
	start := make(chan int, 1)
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		_ = c.WriteMessage(websocket.TextMessage, []byte(lifecycle(10001)))
		for n := range start {
			for i := range n {
				if c.WriteMessage(websocket.TextMessage, frames[i%16]) != nil {
					return
				}
			}
		}
	}))
	defer srv.Close()
	u, err := url.Parse("ws" + strings.TrimPrefix(srv.URL, "http") + "/")
	require.NoError(b, err)

	var taken atomic.Int64
	done := make(chan struct{}, 1)
	var want atomic.Int64
	h := New(Options{Dial: WebSocket(u, "", DefaultLimits.Frame), Changed: func(string) {
		if taken.Add(1) == want.Load() {
			done <- struct{}{}
		}
	}})
	defer h.Close()
	for i := range 16 {
		_, err := h.Subscribe(context.Background(), event.Filter{SelfID: 10001, Types: []event.Kind{event.KindMessage}, GroupIDs: []int64{int64(20000 + i)}})
		require.NoError(b, err)
	}
	b.ResetTimer()
	taken.Store(0)
	want.Store(int64(b.N))
	began := time.Now()
	start <- b.N
	select {
	case <-done:
	case <-time.After(10 * time.Minute):
		b.Fatal("the flood was not taken in")
	}
	b.ReportMetric(float64(b.N)/time.Since(began).Seconds(), "events/s")
	close(start)
}
