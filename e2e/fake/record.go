package fake

// Every request is recorded, because tests share one fake and must be able
// to count exactly their own requests: by the trace ID of the traceparent
// header the product forwards, or by a tag inside the "_fake" marker when a
// test needs to prove that nothing was sent at all.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Request is one recorded HTTP request and what the fake answered.
type Request struct {
	Seq      int
	Method   string
	Path     string
	RawQuery string
	// Header is the full request header (Authorization, traceparent,
	// tracestate, baggage, ...).
	Header http.Header
	// TraceID is the 32-hex trace-id of a well-formed traceparent header, or "".
	TraceID string
	Body    []byte
	// Action and Params are what the adapter parsed (Params is a JSON object).
	Action string
	Params json.RawMessage
	// Marker is the "_fake" param, when it was a string.
	Marker string

	// Status and Response are what the fake sent; Status 0 means nothing.
	Status   int
	Response []byte
	// ClientGone is set when the client went away while the fake was
	// still working on the request (a cancelled or timed-out call).
	ClientGone bool
	// Done is set when the handler has returned.
	Done bool
	// Received is when the request arrived, so a test can read the
	// spacing of what the fake was sent (never the test's own duration).
	Received time.Time
}

// String summarises the request for failure messages. It leaves out the
// headers and the body, so an Authorization header (a secret) never ends
// up in a test log.
func (r Request) String() string {
	return fmt.Sprintf("#%d %s %s action=%q marker=%q trace=%s status=%d client_gone=%t",
		r.Seq, r.Method, r.Path, r.Action, r.Marker, r.TraceID, r.Status, r.ClientGone)
}

// Data is the "data" member of the response envelope, verbatim.
func (r Request) Data() json.RawMessage {
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(r.Response, &env) != nil {
		return nil
	}
	return env.Data
}

// BodyAction is the "action" member of a JSON body, whether or not the
// fake got as far as parsing it (a 401 is answered before parsing).
func (r Request) BodyAction() string {
	var b struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(r.Body, &b)
	return b.Action
}

type recorder struct {
	mu   sync.Mutex
	reqs []*Request
}

var traceparentRE = regexp.MustCompile(`^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$`)

// TraceIDOf returns the trace-id of a traceparent value, or "".
func TraceIDOf(traceparent string) string {
	m := traceparentRE.FindStringSubmatch(strings.TrimSpace(traceparent))
	if m == nil {
		return ""
	}
	return m[1]
}

func (rc *recorder) begin(r *http.Request) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	q := &Request{
		Seq: len(rc.reqs), Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Header: r.Header.Clone(), TraceID: TraceIDOf(r.Header.Get("traceparent")), Received: time.Now(),
	}
	rc.reqs = append(rc.reqs, q)
	return q.Seq
}

func (rc *recorder) update(seq int, f func(*Request)) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	f(rc.reqs[seq])
}

func (rc *recorder) finish(seq, status int, body []byte) {
	rc.update(seq, func(q *Request) {
		q.Status, q.Response, q.Done = status, slices.Clone(body), true
	})
}

// select returns copies of the recorded requests that match keep.
func (rc *recorder) selectWhere(keep func(*Request) bool) []Request {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []Request
	for _, q := range rc.reqs {
		if keep(q) {
			c := *q
			c.Header = q.Header.Clone()
			c.Body = slices.Clone(q.Body)
			c.Params = slices.Clone(q.Params)
			c.Response = slices.Clone(q.Response)
			out = append(out, c)
		}
	}
	return out
}

// Requests returns every recorded request, oldest first.
func (f *Fake) Requests() []Request {
	return f.rec.selectWhere(func(*Request) bool { return true })
}

// ByTrace returns the requests whose traceparent header carries traceID
// (32 lowercase hex digits).
func (f *Fake) ByTrace(traceID string) []Request {
	return f.rec.selectWhere(func(q *Request) bool { return traceID != "" && q.TraceID == traceID })
}

// ByTag returns the requests whose "_fake" marker contains "tag:<tag>".
func (f *Fake) ByTag(tag string) []Request {
	return f.rec.selectWhere(func(q *Request) bool {
		return tag != "" && slices.Contains(markerParts(q.Marker), "tag:"+tag)
	})
}
