package onebot

import (
	"errors"
	"net/http"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// ErrPlainHTTP is the cause of an https:// endpoint whose server answered
// the TLS handshake in plain HTTP. SnowLuma's HTTP API node has no TLS:
// https:// is right only for a TLS proxy in front of it, and a proxy
// completes the handshake.
var ErrPlainHTTP = errors.New("SNOWLUMA_MCP_ENDPOINT starts with https://, but the server at its port speaks plain HTTP, as SnowLuma's HTTP API node does " +
	"(it has no TLS; https:// is only for a TLS proxy in front of it): nothing was sent. Write the endpoint with http://")

// Foreign is the cause of an answer without the OneBot envelope
// ({"status", "retcode", …}) that SnowLuma's HTTP API node gives every
// request, errors included (SnowLuma 1.11.1's http-server-adapter.ts
// answers a wrong path with 404 and a wrong token with 401, each with
// one): the port answers, but another service holds it.
type Foreign struct {
	// Status is the HTTP status it answered.
	Status int
	err    *fault.Error
}

func (f *Foreign) Error() string { return f.err.Error() }

// foreign marks e, raised for an answer without an envelope, as another
// service's. A 401 or 403 stays a refused token, and a 426 or 405 stays
// SnowLuma's WebSocket node, which answers plain HTTP that way without
// one. A 404 without an envelope is no path SnowLuma refused: its message
// names the port instead.
func foreign(status int, e *fault.Error) *fault.Error {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusUpgradeRequired, http.StatusMethodNotAllowed:
		return e
	case http.StatusNotFound:
		e = fault.Errorf(fault.CodeWrongEndpoint, "the server at SNOWLUMA_MCP_ENDPOINT answered HTTP 404 without the OneBot envelope SnowLuma's HTTP API node "+
			"answers every request with: the port belongs to another service. Set SNOWLUMA_MCP_ENDPOINT to the port of SnowLuma's HTTP server (%s; 3000 by default)",
			webui.InWebUI(webui.NodeHTTP, webui.FieldPort)).Unsent()
	}
	out := fault.Wrap(e.Code, &Foreign{Status: status, err: e}, "")
	out.NothingSent = e.NothingSent
	return out
}

// ForeignStatus is the HTTP status of an answer that was not SnowLuma's
// (see Foreign), and whether err is one.
func ForeignStatus(err error) (int, bool) {
	var f *Foreign
	if errors.As(err, &f) {
		return f.Status, true
	}
	return 0, false
}

// PlainHTTP reports an https:// endpoint that met a plain-HTTP server.
func PlainHTTP(err error) bool { return errors.Is(err, ErrPlainHTTP) }

// Unwrap keeps the error it marks in the chain, with its code and next
// step.
func (f *Foreign) Unwrap() error { return f.err }
