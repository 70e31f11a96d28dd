package fake

// This file is the HTTP adapter: SnowLuma's exact request-processing order
// (HttpServerAdapter.handleRequest in
// packages/onebot/src/network/http-server-adapter.ts) and its envelopes
// (okResponse, failedResponse and RETCODE in packages/onebot/src/types.ts).
// Action logic lives in actions.go, faults in faults.go; stream actions in
// stream_*.go.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// maxBody is SnowLuma's request body cap (2 MiB).
const maxBody = 2 << 20

// request is a parsed OneBot request.
type request struct {
	action string
	params map[string]json.RawMessage
	echo   json.RawMessage // nil when the request had none
}

func (f *Fake) serveHTTP(w http.ResponseWriter, r *http.Request) {
	rec := f.rec.begin(r)
	cw := &capture{ResponseWriter: w, rc: &f.rec, seq: rec}
	defer func() { f.rec.finish(rec, cw.status, cw.body.Bytes()) }()
	// The body is recorded even for requests SnowLuma refuses before
	// reading it (401, 405), so tests can still tell what was sent. One
	// byte over the cap is enough to know the cap was crossed.
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	f.rec.update(rec, func(q *Request) { q.Body, q.Marker = body, bodyMarker(body) })
	f.serve(cw, r, rec, body, err)
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request, rec int, body []byte, readErr error) {
	// 1. Path match.
	pathAction, ok := f.matchPath(r.URL.Path)
	if !ok {
		writeFailure(w, http.StatusNotFound, 1404, "not found", nil)
		return
	}
	// 2. Auth, before the method check.
	if !f.authorized(r) {
		writeFailure(w, http.StatusUnauthorized, 1401, "unauthorized", nil)
		return
	}
	// 3. Health probe.
	if r.Method == http.MethodGet && pathAction == "" {
		writeOK(w, json.RawMessage(`{"online":true}`), nil)
		return
	}
	// 4. Method.
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		writeFailure(w, http.StatusMethodNotAllowed, 1400, "method not allowed", nil)
		return
	}
	// 5. Params.
	req := request{action: pathAction, params: map[string]json.RawMessage{}}
	if r.Method == http.MethodGet {
		for k, vs := range r.URL.Query() {
			req.params[k] = parseLoose(vs[len(vs)-1])
		}
	} else {
		if len(body) > maxBody {
			// SnowLuma destroys the socket: no response at all.
			panic(http.ErrAbortHandler)
		}
		if readErr != nil {
			writeFailure(w, http.StatusInternalServerError, 1200, readErr.Error(), nil)
			return
		}
		if wording := parseBody(r.Header.Get("Content-Type"), body, &req); wording != "" {
			writeFailure(w, http.StatusBadRequest, 1400, wording, nil)
			return
		}
	}
	params, _ := json.Marshal(req.params)
	marker := f.markerFor(req.action, req.params)
	f.rec.update(rec, func(q *Request) { q.Action, q.Params, q.Marker = req.action, params, marker })
	// 6. Action required.
	if req.action == "" {
		writeFailure(w, http.StatusBadRequest, 1400, "bad request: missing action", nil)
		return
	}
	// Injected faults come before the action runs, as a real failure would.
	if !f.applyFaults(w, r, rec, marker, req.echo) {
		return
	}
	// 7. Stream actions answer with frames, whatever their outcome.
	if _, ok := streamActions[req.action]; ok {
		f.serveStream(w, r, rec, req, marker)
		return
	}
	// 8. The action; HTTP 200 whatever its outcome.
	data, fail := f.handle(req.action, req.params)
	if fail != nil {
		writeFailure(w, http.StatusOK, fail.retcode, fail.wording, req.echo)
		return
	}
	writeOK(w, data, req.echo)
}

// bodyMarker finds the "_fake" marker of a JSON body without applying
// SnowLuma's rules, so that requests refused before parsing can be found
// by tag too.
func bodyMarker(body []byte) string {
	var b map[string]json.RawMessage
	if json.Unmarshal(body, &b) != nil {
		return ""
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(b["params"], &inner) == nil && inner != nil {
		return markerOf(inner)
	}
	return markerOf(b)
}

// parseBody fills req from a POST body. It returns a 400 wording on failure.
func parseBody(contentType string, body []byte, req *request) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return "" // params {}; a path action still works
	}
	switch {
	case strings.Contains(contentType, "application/x-www-form-urlencoded"):
		parseForm(body, req)
		return ""
	case strings.Contains(contentType, "application/json") || contentType == "":
		if !json.Valid(body) {
			if contentType == "" {
				parseForm(body, req)
				return ""
			}
			return "bad request: invalid json"
		}
		parseJSON(body, req)
		return ""
	default:
		return "bad request: unsupported content-type: " + contentType
	}
}

// parseJSON applies the JSON body rules: only an object counts; params are
// body.params when that is a non-array object, else the whole body.
func parseJSON(body []byte, req *request) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil || obj == nil {
		return // array or primitive: ignored
	}
	if req.action == "" {
		var a string
		if json.Unmarshal(obj["action"], &a) == nil {
			req.action = a
		}
	}
	var inner map[string]json.RawMessage
	if p, ok := obj["params"]; ok && json.Unmarshal(p, &inner) == nil && inner != nil {
		req.params = inner
	} else {
		req.params = obj
	}
	if e, ok := obj["echo"]; ok {
		req.echo = e
	}
}

// parseForm applies the urlencoded rules: fields are JSON-parsed when
// possible; action (only without a path action) and echo are taken out.
func parseForm(body []byte, req *request) {
	values, _ := url.ParseQuery(string(body))
	for k, vs := range values {
		v := vs[len(vs)-1]
		switch {
		case k == "action" && req.action == "":
			req.action = v
		case k == "echo":
			req.echo = parseLoose(v)
		default:
			req.params[k] = parseLoose(v)
		}
	}
}

// parseLoose is JSON.parse with a fall-back to the string itself.
func parseLoose(v string) json.RawMessage {
	if t := strings.TrimSpace(v); t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	s, _ := json.Marshal(v)
	return s
}

// writeOK writes {"status":"ok","retcode":0,"data":...} (+echo).
func writeOK(w http.ResponseWriter, data, echo json.RawMessage) {
	if data == nil {
		data = json.RawMessage("null")
	}
	var b bytes.Buffer
	b.WriteString(`{"status":"ok","retcode":0,"data":`)
	b.Write(data)
	writeEcho(&b, echo)
	b.WriteByte('}')
	writeJSON(w, http.StatusOK, b.Bytes())
}

// writeFailure writes {"status":"failed","retcode":N,"data":null,"wording":...}
// (+echo). There is no "message" field outside stream frames.
func writeFailure(w http.ResponseWriter, status, retcode int, wording string, echo json.RawMessage) {
	var b bytes.Buffer
	b.WriteString(`{"status":"failed","retcode":`)
	b.WriteString(strconv.Itoa(retcode))
	b.WriteString(`,"data":null,"wording":`)
	b.Write(quote(wording))
	writeEcho(&b, echo)
	b.WriteByte('}')
	writeJSON(w, status, b.Bytes())
}

func writeEcho(b *bytes.Buffer, echo json.RawMessage) {
	if echo != nil {
		b.WriteString(`,"echo":`)
		b.Write(echo)
	}
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// quote encodes s as a JSON string the way JSON.stringify does (no HTML
// escaping).
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// capture keeps the status and body that were sent, for the record. Each
// write reaches the record before it reaches the wire, so a test that has
// read a reply always finds it recorded.
type capture struct {
	http.ResponseWriter
	rc     *recorder
	seq    int
	status int
	body   bytes.Buffer
}

func (c *capture) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
	c.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the real writer (to flush
// stream frames).
func (c *capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func (c *capture) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body.Write(p)
	c.rc.update(c.seq, func(q *Request) { q.Status, q.Response = c.status, slices.Clone(c.body.Bytes()) })
	return c.ResponseWriter.Write(p)
}
