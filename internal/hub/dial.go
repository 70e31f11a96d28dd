package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/gorilla/websocket"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// WebSocket dials SnowLuma's event WebSocket at u with gorilla/websocket.
// The token travels only in the Authorization header (never in the URL,
// which may end up in logs), and frames larger than maxFrame stop the
// connection instead of being read.
func WebSocket(u *url.URL, token string, maxFrame int64) Dialer {
	target := u.String()
	return func(ctx context.Context) (Conn, error) {
		header := http.Header{}
		if token != "" {
			header.Set("Authorization", "Bearer "+token)
		}
		d := websocket.Dialer{Proxy: http.ProxyFromEnvironment, ReadBufferSize: 16 << 10}
		c, resp, err := d.DialContext(ctx, target, header)
		if resp != nil && resp.Body != nil {
			_ = resp.Body.Close()
		}
		if err != nil {
			return nil, dialFailure(err, resp)
		}
		c.SetReadLimit(maxFrame)
		return &wsConn{c: c, maxFrame: maxFrame}, nil
	}
}

func dialFailure(err error, resp *http.Response) *Failure {
	if resp != nil && resp.StatusCode == http.StatusSwitchingProtocols {
		// The server agreed to upgrade, then got the handshake wrong (a
		// Sec-WebSocket-Accept that does not answer our key, a missing
		// Upgrade header, an extension never offered): it is not a
		// refusal, and not SnowLuma's own WebSocket server, which gets
		// this right.
		return &Failure{Reason: ReasonProtocol,
			Message:  fmt.Sprintf("the server at SNOWLUMA_MCP_EVENTS_URL answered the WebSocket upgrade with HTTP 101 but an invalid handshake (%v): its Upgrade, Connection or Sec-WebSocket-Accept header is wrong", err),
			NextStep: "Point SNOWLUMA_MCP_EVENTS_URL at SnowLuma's OneBot WebSocket server directly; a proxy in between that rewrites the handshake breaks it. Then subscribe again."}
	}
	if resp != nil {
		return refusal(resp.StatusCode)
	}
	return &Failure{Reason: ReasonConnectFailed,
		Message:  fmt.Sprintf("the event connection could not be opened: %v", err),
		NextStep: "Check that SnowLuma is running and SNOWLUMA_MCP_EVENTS_URL points at its WebSocket server, then subscribe again."}
}

// refusal words an upgrade answered with an HTTP status instead of 101.
// TokenAdvice is the fix of a refused token. SnowLuma gives each node a
// random token of its own, so the WS 服务端 node's goes into a variable of
// its own; it holds whichever variable the events token came from (the
// advice is the same: setting SNOWLUMA_MCP_EVENTS_TOKEN overrides
// SNOWLUMA_MCP_TOKEN for events), and never asks to change the HTTP
// node's token, which would break the HTTP calls.
var TokenAdvice = "S" + TokenFix[1:] + "; it is in " + webui.InWebUI(webui.NodeWS, webui.FieldToken) + "."

// TokenFix is TokenAdvice's change alone, which `check` words for the
// person at the terminal.
const TokenFix = "set SNOWLUMA_MCP_EVENTS_TOKEN to the WS 服务端 node's 授权 Token (or give both nodes the same Token)"

// SnowLuma's WebSocket server answers a wrong path with 400 "Bad path for
// WebSocket". An HTTP server answers the upgrade as an ordinary request, and
// SnowLuma's HTTP server answers GET on its path with 200: a 200 means the
// URL's port is the HTTP adapter's, whatever its path.
func refusal(status int) *Failure {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return &Failure{Reason: ReasonAuthRefused,
			Message:  fmt.Sprintf("SnowLuma refused the WebSocket upgrade with HTTP %d, its answer to a wrong access token.", status),
			NextStep: TokenAdvice}
	case status == http.StatusOK:
		return &Failure{Reason: ReasonConnectFailed,
			Message: "the server at SNOWLUMA_MCP_EVENTS_URL answered the WebSocket upgrade with HTTP 200, as an HTTP server does: " +
				"the URL's port belongs to an HTTP server, most likely SnowLuma's HTTP server (3000 by default), not its WebSocket server.",
			NextStep: "Set SNOWLUMA_MCP_EVENTS_URL to the port of SnowLuma's WebSocket server (" + webui.InWebUI(webui.NodeWS, webui.FieldPort) + "; 3001 by default), then subscribe again."}
	case status == http.StatusBadRequest:
		return &Failure{Reason: ReasonConnectFailed,
			Message: "SnowLuma refused the WebSocket upgrade with HTTP 400, its answer to a path other than its WebSocket server's.",
			NextStep: "Set the path of SNOWLUMA_MCP_EVENTS_URL to exactly the path of SnowLuma's WebSocket server (" + webui.InWebUI(webui.NodeWS, webui.FieldPath) + "; " +
				"\"path\" under wsServers in config/onebot.json; \"/\" by default), then subscribe again."}
	default:
		return &Failure{Reason: ReasonConnectFailed,
			Message:  fmt.Sprintf("the server at SNOWLUMA_MCP_EVENTS_URL refused the WebSocket upgrade with HTTP %d.", status),
			NextStep: "Check that SNOWLUMA_MCP_EVENTS_URL is SnowLuma's WebSocket server (3001 by default) reached directly, not through a proxy, then subscribe again."}
	}
}

// wsConn reads text frames from a gorilla connection and words its
// endings as Failures.
type wsConn struct {
	c        *websocket.Conn
	maxFrame int64
}

func (w *wsConn) Read() ([]byte, error) {
	_, data, err := w.c.ReadMessage()
	if err != nil {
		return nil, w.readFailure(err)
	}
	return data, nil
}

func (w *wsConn) readFailure(err error) *Failure {
	if errors.Is(err, websocket.ErrReadLimit) {
		return &Failure{Reason: ReasonFrameTooLarge,
			Message:  fmt.Sprintf("SnowLuma sent a frame larger than %d bytes; the event connection was stopped.", w.maxFrame),
			NextStep: "A frame this large is not an ordinary event." + ReleaseAdvice}
	}
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		if ce.Code == websocket.ClosePolicyViolation {
			return &Failure{Reason: ReasonAuthRefused,
				Message:  "SnowLuma closed the event connection with code 1008, its answer to a wrong access token.",
				NextStep: TokenAdvice + ReleaseAdvice}
		}
		if ce.Code != websocket.CloseAbnormalClosure {
			return &Failure{Reason: ReasonClosedByServer,
				Message:  fmt.Sprintf("SnowLuma closed the event connection (WebSocket close code %d).", ce.Code),
				NextStep: "SnowLuma stopped its WebSocket server or is restarting." + ReleaseAdvice}
		}
	}
	if lost(err) {
		return &Failure{Reason: ReasonConnectionLost,
			Message:  "the event connection was lost without a close frame.",
			NextStep: "Check that SnowLuma is still running." + ReleaseAdvice}
	}
	// Anything else gorilla reports while reading is the server breaking
	// the WebSocket protocol (a bad opcode, reserved bits, a masked frame):
	// gorilla has already answered it with close code 1002.
	return &Failure{Reason: ReasonProtocol,
		Message:  fmt.Sprintf("the server broke the WebSocket protocol (%v); the event connection was stopped.", err),
		NextStep: "SnowLuma's own WebSocket server does not do this: check that SNOWLUMA_MCP_EVENTS_URL points at it directly, not through a proxy that alters frames." + ReleaseAdvice}
}

// lost reports whether a read error means the connection itself went away
// (the socket closed, reset or timed out, or ended mid-frame), as opposed
// to the server sending something that is not WebSocket.
func lost(err error) bool {
	var ce *websocket.CloseError // 1006: gorilla's word for an EOF
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed)
}

// Close says goodbye with a normal close frame, then closes the socket.
func (w *wsConn) Close() error {
	_ = w.c.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	return w.c.Close()
}
