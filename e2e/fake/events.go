package fake

// The WebSocket side of the fake: SnowLuma's WebSocket server adapter
// (packages/onebot/src/network/ws-server-adapter.ts), on its own loopback
// port, as the real adapter has its own. A plain request (no upgrade) is
// answered 426 "Upgrade Required", as SnowLuma's WebSocket server answers
// every request that is not an upgrade; the upgrade is accepted only on the
// configured path (400 "Bad path for WebSocket" elsewhere); both are in
// packages/websocket/src/server.ts. A wrong token completes the upgrade and
// is then closed with 1008 "invalid access token"; an accepted connection
// gets lifecycle connect, lifecycle enable and one heartbeat
// (bootstrapMetaFrames in packages/onebot/src/network/adapter.ts), then a
// heartbeat every interval (HEARTBEAT_INTERVAL in
// packages/onebot/src/instance.ts).
//
// Tests run in parallel against one fake, so each takes its own Scene: a
// configured path of its own (as if each were its own SnowLuma), with its
// own account, its own connections and its own controls. Nothing one test
// does to its scene reaches another's.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// events is the fake's WebSocket server.
type events struct {
	srv    *httptest.Server
	token  string
	mu     sync.Mutex
	scenes map[string]*Scene
	next   int
}

func newEvents(token string) *events {
	e := &events{token: token, scenes: map[string]*Scene{}}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	return e
}

// SceneOptions configure one scene.
type SceneOptions struct {
	// SelfID is the logged-in account; 0 means 10001.
	SelfID int64
	// Heartbeat is the heartbeat interval; 0 means SnowLuma's 30 s.
	Heartbeat time.Duration
	// Token is the scene's WS 服务端 node's own accessToken; empty means
	// the fake's Token. SnowLuma gives each node a random token of its
	// own (makeDefaultOneBotConfig in packages/onebot/src/config.ts calls
	// generateAccessToken for http-default and ws-default alike), and
	// each adapter checks only its own (ws-server-adapter.ts in
	// packages/onebot/src/network passes its config.accessToken to
	// isAuthorized).
	Token string
}

// Scene is one test's own event endpoint.
type Scene struct {
	path      string
	url       string
	selfID    int64
	heartbeat time.Duration
	token     string

	mu      sync.Mutex
	dials   int
	peers   []*Peer
	arrived chan *Peer
}

// Scene makes a fresh scene on the shared fake.
func (f *Fake) Scene(o SceneOptions) *Scene {
	e := f.events
	e.mu.Lock()
	defer e.mu.Unlock()
	e.next++
	s := &Scene{
		path: fmt.Sprintf("/scene-%d", e.next), selfID: o.SelfID, heartbeat: o.Heartbeat, token: e.token,
		arrived: make(chan *Peer, 64),
	}
	if o.Token != "" {
		s.token = o.Token
	}
	if s.selfID == 0 {
		s.selfID = 10001
	}
	if s.heartbeat <= 0 {
		s.heartbeat = 30 * time.Second
	}
	s.url = "ws" + strings.TrimPrefix(e.srv.URL, "http") + s.path
	e.scenes[s.path] = s
	return s
}

// URL is the scene's ws: URL, for SNOWLUMA_MCP_EVENTS_URL.
func (s *Scene) URL() string { return s.url }

// SelfID is the scene's account.
func (s *Scene) SelfID() int64 { return s.selfID }

// Dials counts upgrade requests on the scene's path, refused ones too.
func (s *Scene) Dials() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dials
}

// Next waits for the scene's next accepted (authorized) connection.
func (s *Scene) Next(ctx context.Context) (*Peer, error) {
	select {
	case p := <-s.arrived:
		return p, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("no event connection arrived: %w", ctx.Err())
	}
}

// Push sends a frame to every open connection of the scene.
func (s *Scene) Push(frame string) {
	s.mu.Lock()
	peers := append([]*Peer(nil), s.peers...)
	s.mu.Unlock()
	for _, p := range peers {
		_ = p.Send(frame)
	}
}

// Peer is one accepted connection.
type Peer struct {
	c    *websocket.Conn
	wmu  sync.Mutex
	done chan struct{}
	// Bearer says the token came in the Authorization header; QueryToken
	// says an access_token query parameter was present (it must not be).
	Bearer     bool
	QueryToken bool
}

// Done closes when the connection has ended, whoever ended it.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Send writes one text frame.
func (p *Peer) Send(frame string) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return p.c.WriteMessage(websocket.TextMessage, []byte(frame))
}

// Drop ends the connection without a close frame, as a crash would.
func (p *Peer) Drop() { _ = p.c.NetConn().Close() }

// Garble writes a frame with a reserved opcode (3), which no WebSocket
// server may send: what a proxy that corrupts the stream would deliver.
// SnowLuma itself never does this; the fault shows how a protocol
// violation is reported.
func (p *Peer) Garble() {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, _ = p.c.NetConn().Write([]byte{0x83, 0x00})
}

// Shutdown does what SnowLuma does when its adapter stops: lifecycle
// disable, then close 1000.
func (p *Peer) Shutdown(selfID int64) {
	_ = p.Send(Lifecycle(selfID, "disable"))
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_ = p.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (e *events) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	s := e.scenes[r.URL.Path]
	e.mu.Unlock()
	// SnowLuma's WebSocket server is a Node HTTP server whose request
	// handler answers every plain request (no Upgrade header) with 426
	// "Upgrade Required"; an upgrade is checked for its path first, then
	// for its method (packages/websocket/src/server.ts).
	if r.Header.Get("Upgrade") == "" || !strings.Contains(strings.ToLower(r.Header.Get("Connection")), "upgrade") {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusUpgradeRequired)
		_, _ = w.Write([]byte("Upgrade Required"))
		return
	}
	if s == nil {
		http.Error(w, "Bad path for WebSocket", http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodGet {
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.mu.Lock()
	s.dials++
	s.mu.Unlock()
	bearer := s.token != "" && r.Header.Get("Authorization") == "Bearer "+s.token
	query := r.URL.Query().Has("access_token")
	authorized := s.token == "" || bearer || r.URL.Query().Get("access_token") == s.token
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	if !authorized {
		_ = c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "invalid access token"))
		_ = c.Close()
		return
	}
	p := &Peer{c: c, done: make(chan struct{}), Bearer: bearer, QueryToken: query}
	// The greeting and the joining are one step under the scene's lock: a
	// client that has seen the connect frame may make a test Push at once,
	// and that Push must find this peer (and must not overtake the greeting).
	s.mu.Lock()
	for _, f := range []string{Lifecycle(s.selfID, "connect"), Lifecycle(s.selfID, "enable"), Heartbeat(s.selfID)} {
		_ = p.Send(f)
	}
	s.peers = append(s.peers, p)
	s.mu.Unlock()
	s.arrived <- p
	go p.beat(s.selfID, s.heartbeat)
	// Incoming frames are read (and ignored, as an Event-role adapter
	// does) until the connection ends.
	for {
		if _, _, err := c.ReadMessage(); err != nil {
			break
		}
	}
	_ = c.Close()
	close(p.done)
	s.mu.Lock()
	for i, q := range s.peers {
		if q == p {
			s.peers = append(s.peers[:i], s.peers[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
}

func (p *Peer) beat(selfID int64, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			_ = p.Send(Heartbeat(selfID))
		}
	}
}

// Frames in SnowLuma's shapes: meta events as makeLifecycleEvent and
// makeHeartbeatEvent build them (packages/onebot/src/instance.ts), the
// others as packages/onebot/src/event-converter/ does.

// Lifecycle is a lifecycle meta event (connect, enable or disable).
func Lifecycle(selfID int64, sub string) string {
	return fmt.Sprintf(`{"time":%d,"self_id":%d,"post_type":"meta_event","meta_event_type":"lifecycle","sub_type":%q,"status":{"online":true,"good":true}}`, time.Now().Unix(), selfID, sub)
}

// Heartbeat is a heartbeat meta event.
func Heartbeat(selfID int64) string {
	return fmt.Sprintf(`{"time":%d,"self_id":%d,"post_type":"meta_event","meta_event_type":"heartbeat","status":{"online":true,"good":true},"interval":30000}`, time.Now().Unix(), selfID)
}

// GroupMessage is a group message from user in group.
func GroupMessage(selfID, group, user int64, text string) string {
	return fmt.Sprintf(`{"time":%d,"self_id":%d,"post_type":"message","message_type":"group","sub_type":"normal","message_id":2137770485,"message_seq":12345,"group_id":%d,"user_id":%d,"message":[{"type":"text","data":{"text":%q}}],"raw_message":%q,"font":0,"sender":{"user_id":%d,"nickname":"Alice","card":"","role":"member","sex":"unknown","age":0},"anonymous":null}`,
		time.Now().Unix(), selfID, group, user, text, text, user)
}

// PrivateMessage is a friend's private message.
func PrivateMessage(selfID, user int64, text string) string {
	return fmt.Sprintf(`{"time":%d,"self_id":%d,"post_type":"message","message_type":"private","sub_type":"friend","message_id":-1264852461,"message_seq":678,"user_id":%d,"message":[{"type":"text","data":{"text":%q}}],"raw_message":%q,"font":0,"sender":{"user_id":%d,"nickname":"Alice","sex":"unknown","age":0}}`,
		time.Now().Unix(), selfID, user, text, text, user)
}

// SentMessage is the account's own group message echoed back.
func SentMessage(selfID, group int64, text string) string {
	return fmt.Sprintf(`{"time":%d,"self_id":%d,"post_type":"message_sent","message_type":"group","sub_type":"normal","message_id":1064864907,"message_seq":12346,"group_id":%d,"user_id":%d,"message":[{"type":"text","data":{"text":%q}}],"raw_message":%q,"font":0,"sender":{"user_id":%d,"nickname":"bot","card":"","role":"admin","sex":"unknown","age":0},"anonymous":null}`,
		time.Now().Unix(), selfID, group, selfID, text, text, selfID)
}

// GroupRecall is a group_recall notice.
func GroupRecall(selfID, group, user int64) string {
	return fmt.Sprintf(`{"time":%d,"self_id":%d,"post_type":"notice","notice_type":"group_recall","group_id":%d,"operator_id":10003,"user_id":%d,"message_id":2137770485}`,
		time.Now().Unix(), selfID, group, user)
}

// FriendRequest is a friend request.
func FriendRequest(selfID, user int64, comment string) string {
	return fmt.Sprintf(`{"time":%d,"self_id":%d,"post_type":"request","request_type":"friend","user_id":%d,"comment":%q,"flag":"u_Xy12AbCdEf"}`,
		time.Now().Unix(), selfID, user, comment)
}

// Oversize is a well-formed group message of about n bytes.
func Oversize(selfID int64, n int) string {
	return GroupMessage(selfID, 123456789, 10002, strings.Repeat("x", n))
}

// Malformed is a frame cut off mid-object.
const Malformed = `{"time":1764664201,"self_id":10001,"post_type":"mess`
