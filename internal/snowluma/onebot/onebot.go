// Package onebot is the HTTP client for SnowLuma's OneBot v11 endpoint. It
// sends one POST per call and never retries: a retried write could post a QQ
// message twice, so a failure is reported, not repeated. Replies are kept as
// raw bytes so numbers, null and {} reach the agent exactly as SnowLuma sent
// them.
package onebot

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// maxReplyBytes bounds an ordinary reply held in memory. Large file data
// travels through stream actions, never through ordinary replies.
const maxReplyBytes = 64 << 20

// Doer runs one OneBot action.
type Doer interface {
	Do(ctx context.Context, action string, params json.RawMessage) (*Reply, error)
}

// Reply is a decoded OneBot envelope together with its verbatim bytes.
type Reply struct {
	// Raw is the envelope exactly as received.
	Raw json.RawMessage
	// Status is "ok", "failed" or "async" (or whatever SnowLuma sent).
	Status string
	// Retcode is kept as a json.Number so no precision is ever lost.
	Retcode json.Number
	// Wording is SnowLuma's human-readable failure reason, if any.
	Wording string
}

// Client posts actions to one endpoint with one token.
type Client struct {
	endpoint   string
	path       string // the endpoint's path, which messages may name
	token      string
	http       *retryablehttp.Client
	streamHTTP *retryablehttp.Client
	timeouts   StreamTimeouts
}

// New builds a client for endpoint. The token is sent as a bearer token and
// kept nowhere else.
func New(endpoint *url.URL, token string, st StreamTimeouts) *Client {
	if st.Connect <= 0 {
		st.Connect = 30 * time.Second
	}
	if st.Idle <= 0 {
		st.Idle = 60 * time.Second
	}
	return &Client{endpoint: endpoint.String(), path: Path(endpoint), token: token, http: noRetry(transport()), streamHTTP: noRetry(streamTransport(st.Connect)), timeouts: st}
}

// Path is the endpoint's path as sent, the one part of the endpoint a
// message may repeat: its host is private and its query may carry a token.
func Path(endpoint *url.URL) string {
	if endpoint == nil || endpoint.EscapedPath() == "" {
		return "/"
	}
	return endpoint.EscapedPath()
}

// noRetry wraps tr in a retryablehttp client that never retries: one
// request per call, always.
func noRetry(tr *http.Transport) *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	rc.CheckRetry = func(context.Context, *http.Response, error) (bool, error) { return false, nil }
	// The library logs each request URL by default; endpoints are private.
	rc.Logger = nil
	// Without an ErrorHandler the library replaces a final error with its own
	// "giving up after 1 attempt" text and drops the response; keep both.
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	rc.HTTPClient = &http.Client{Transport: tr, CheckRedirect: noRedirects}
	return rc
}

// transport is for ordinary calls, bounded by the caller's deadline.
func transport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	return tr
}

// noRedirects keeps the bearer token from following a redirect elsewhere.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// With returns a Doer that adds headers (the call's trace context) to every
// request it sends. Each call gets its own, so concurrent calls never share.
func (c *Client) With(headers http.Header) Executor { return &bound{c: c, headers: headers} }

// Executor runs ordinary and stream actions for one call.
type Executor interface {
	Doer
	Streamer
}

// Do runs an action without extra headers.
func (c *Client) Do(ctx context.Context, action string, params json.RawMessage) (*Reply, error) {
	return c.do(ctx, action, params, nil)
}

type bound struct {
	c       *Client
	headers http.Header
}

func (b *bound) Do(ctx context.Context, action string, params json.RawMessage) (*Reply, error) {
	return b.c.do(ctx, action, params, b.headers)
}

// newRequest builds the POST for one action with the call's headers and the
// bearer token.
func (c *Client) newRequest(ctx context.Context, action string, params json.RawMessage, headers http.Header) (*retryablehttp.Request, error) {
	if err := Fits(action, params); err != nil {
		return nil, err
	}
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	// Assembled by hand: params are already JSON (decoded and re-encoded
	// by the caller), and re-marshalling them would scan an upload chunk's
	// 700 KB of base64 twice more.
	name, err := json.Marshal(action)
	if err != nil {
		return nil, fault.Wrap(fault.CodeInvalidArgument, err, "encode request")
	}
	body := make([]byte, 0, len(name)+len(params)+24)
	body = append(body, `{"action":`...)
	body = append(body, name...)
	body = append(body, `,"params":`...)
	body = append(body, params...)
	body = append(body, '}')
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, body)
	if err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "build request")
	}
	for k, v := range headers {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req, nil
}

func (c *Client) do(ctx context.Context, action string, params json.RawMessage, headers http.Header) (*Reply, error) {
	req, err := c.newRequest(ctx, action, params, headers)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, transportError(ctx, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	if err != nil {
		return nil, transportError(ctx, err)
	}
	if len(raw) > maxReplyBytes {
		return nil, fault.Errorf(fault.CodeLimit, "reply larger than %d bytes", maxReplyBytes)
	}
	return decode(resp.StatusCode, raw, c.path)
}

// transportError classifies a failed exchange by its known cause. It must
// see ctx before anyone cancels it on the way out, or every failure would
// look like a cancellation.
func transportError(ctx context.Context, err error) error {
	e := classify(ctx, err)
	if dialFailed(err) {
		e.Unsent()
	}
	return e
}

// dialFailed reports a connection that was never made (refused, unresolved
// host, no route): then not one byte of the request reached SnowLuma, and
// a write certainly did not happen. Failures after the dial are never
// marked, since SnowLuma may have read the request before the socket broke.
func dialFailed(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

func classify(ctx context.Context, err error) *fault.Error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fault.Wrap(fault.CodeTimeout, ctx.Err(), "no reply from SnowLuma in time")
	case ctx.Err() != nil:
		return fault.Wrap(fault.CodeCancelled, ctx.Err(), "call cancelled")
	}
	// The network errors repeat the endpoint's address; report only the cause.
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var ue *url.Error
	var tlsErr tls.RecordHeaderError
	switch {
	case errors.As(err, &tlsErr) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		// A TLS client met a plain-HTTP server: SnowLuma's HTTP API
		// node has no TLS, so an https:// endpoint pointed straight at
		// it fails here before any request is sent.
		return fault.Wrap(fault.CodeTransport, ErrPlainHTTP, "").Unsent()
	case errors.As(err, &dnsErr):
		err = errors.New("the endpoint's host name does not resolve")
	case errors.As(err, &opErr):
		err = opErr.Err
	case errors.As(err, &ue):
		err = ue.Err
	}
	return fault.Wrap(fault.CodeTransport, err, "cannot reach SnowLuma")
}

// decode interprets an HTTP reply to a request sent to path. Anything but a 200 with a JSON object is a
// transport-level failure; a 200 envelope is data, whatever its status.
func decode(status int, raw []byte, path string) (*Reply, error) {
	var env struct {
		Status  string      `json:"status"`
		Retcode json.Number `json:"retcode"`
		Wording string      `json:"wording"`
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	jsonErr := d.Decode(&env)
	switch {
	case status != http.StatusOK:
		wording := ""
		if jsonErr == nil {
			wording, _ = fault.Prefix(env.Wording, fault.QuoteLimit)
		}
		e := statusError(status, wording, path)
		if jsonErr != nil || env.Status == "" {
			e = foreign(status, e)
		}
		return nil, e
	case jsonErr != nil || !json.Valid(raw) || bytes.TrimSpace(raw)[0] != '{':
		return nil, foreign(status, fault.Errorf(fault.CodeBadReply, "SnowLuma's reply is not a JSON object"))
	}
	return &Reply{Raw: raw, Status: env.Status, Retcode: env.Retcode, Wording: env.Wording}, nil
}
