// Package fake is an in-process stand-in for SnowLuma's OneBot v11 HTTP
// server, used by snowluma-mcp's end-to-end tests. It follows the request
// processing order of SnowLuma's HTTP server adapter (path match, auth
// before anything else, health probe, method check, body parsing,
// envelopes), and for the stream actions the framing and behaviour of its
// Stream API (stream_*.go), so that the product is tested against the
// protocol it will really meet, not against what its own client happens to
// send. Its WebSocket server (events.go) is SnowLuma's WebSocket server
// adapter, on a loopback port of its own.
//
// Each SnowLuma fact the fake relies on names, in the comment beside it,
// the file of SnowLuma's public source (github.com/SnowLuma/SnowLuma) that
// implements it, as a path from that repository's root. The source read is
// tag v1.11.1 (commit a11c684), the version the project is verified
// against; a fact that was measured on a running SnowLuma rather than read
// says so.
//
// One fake is shared by tests running in parallel, so nothing about it is
// configured per test: faults are requested per request with the marker
// param "_fake" (SnowLuma and the catalog schemas allow unknown keys), and
// every request is recorded so a test can find its own requests by the trace
// ID of their traceparent header or by a tag inside the marker.
package fake

import (
	"net/http"
	"net/http/httptest"
	"strings"
)

// Options configure a fake.
type Options struct {
	// Token is SnowLuma's accessToken; empty allows every request.
	Token string
	// Path is SnowLuma's configured HTTP path; empty means the default "/".
	Path string
}

// Fake is a running fake SnowLuma HTTP server on 127.0.0.1.
type Fake struct {
	srv   *httptest.Server
	token string
	path  string // normalised

	rec     recorder
	store   *store
	uploads *uploads
	events  *events
	// forwards are forward resources; joins the group join requests;
	// filtered the join requests QQ filtered. All are guarded by
	// forwards.mu.
	forwards forwards
	joins    []joinRequest
	filtered []FilteredRequest
	rosters  map[int64][]groupMember // by group, also guarded by forwards.mu
	profiles map[int64]string        // nicknames by user, also guarded by forwards.mu
	// groupFiles are the groups' file systems, also guarded by forwards.mu.
	groupFiles map[int64]*groupFiles
	// pages are what the web and cache reads answer (Answer).
	pages pages
}

// New starts a fake on a loopback port. Close it when done.
func New(o Options) *Fake {
	f := &Fake{token: o.Token, path: normalizePath(o.Path), store: newStore(), uploads: newUploads(), events: newEvents(o.Token),
		forwards: forwards{res: map[string][]forwardNode{}}}
	// httptest.NewServer listens on 127.0.0.1 only.
	f.srv = httptest.NewServer(http.HandlerFunc(f.serveHTTP))
	return f
}

// URL is the endpoint snowluma-mcp should be given (base URL plus path).
func (f *Fake) URL() string {
	if f.path == "/" {
		return f.srv.URL + "/"
	}
	return f.srv.URL + f.path
}

// WebSocketHTTPURL is the WebSocket server's address written as an HTTP
// endpoint: what a user who gave SNOWLUMA_MCP_ENDPOINT the WebSocket
// adapter's port would have set.
func (f *Fake) WebSocketHTTPURL() string { return f.events.srv.URL + "/" }

// Token is the access token the fake accepts.
func (f *Fake) Token() string { return f.token }

// Close stops the server; it waits for handlers in flight.
func (f *Fake) Close() {
	f.srv.Close()
	f.events.srv.Close()
}

// normalizePath follows SnowLuma's normalizePath: trimmed, "" becomes "/",
// a trailing "/" is dropped unless the path is the root.
func normalizePath(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return "/"
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if len(p) > 1 {
		p = strings.TrimRight(p, "/")
		if p == "" {
			p = "/"
		}
	}
	return p
}

// matchPath returns the path action ("" for none) or ok=false when the
// pathname is outside the configured path (404).
func (f *Fake) matchPath(pathname string) (action string, ok bool) {
	if pathname == f.path || pathname == f.path+"/" {
		return "", true
	}
	prefix := f.path + "/"
	if f.path == "/" {
		prefix = "/"
	}
	if rest, found := strings.CutPrefix(pathname, prefix); found {
		return rest, true
	}
	return "", false
}

// authorized applies SnowLuma's isAuthorized: the exact header
// "Authorization: Bearer <token>" or the access_token query parameter.
func (f *Fake) authorized(r *http.Request) bool {
	if f.token == "" {
		return true
	}
	if r.Header.Get("Authorization") == "Bearer "+f.token {
		return true
	}
	return r.URL.Query().Get("access_token") == f.token
}
