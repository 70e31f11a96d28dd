package fake

// Fault injection is per request, so that tests running in parallel against
// one fake never disturb each other. A request asks for faults with the
// OneBot param "_fake": a comma-separated list of
//
//	http500      HTTP 500 {"status":"failed","retcode":1200,...} (adapter crash)
//	slow:<ms>    wait before answering; a client that goes away ends the wait
//	             and is recorded as ClientGone
//	notjson      HTTP 200 with a body that is not JSON
//	async        HTTP 200 {"status":"async","retcode":1,"data":null}
//	hangup       close the connection without any response
//	tag:<text>   no effect; lets a test find (or not find) its requests
//
// Stream actions have markers of their own, listed in stream_faults.go; an
// automatic upload, whose params the product builds itself, carries its
// marker in the uploaded file's name.

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Marker is the name of the fault-injection param.
const Marker = "_fake"

// maxSlow bounds slow:<ms> so a forgotten test cannot hang the suite.
const maxSlow = 2 * time.Minute

func markerOf(params map[string]json.RawMessage) string {
	var s string
	if json.Unmarshal(params[Marker], &s) != nil {
		return ""
	}
	return s
}

func markerParts(marker string) []string {
	var out []string
	for _, p := range strings.Split(marker, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// applyFaults performs the requested faults in order. It returns false when
// the request has been answered (or abandoned) and the action must not run.
func (f *Fake) applyFaults(w http.ResponseWriter, r *http.Request, rec int, marker string, echo json.RawMessage) bool {
	for _, p := range markerParts(marker) {
		name, arg, _ := strings.Cut(p, ":")
		switch name {
		case "http500":
			writeFailure(w, http.StatusInternalServerError, 1200, "injected adapter failure", nil)
			return false
		case "notjson":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("<html><body>this is not a OneBot envelope</body></html>"))
			return false
		case "async":
			var b strings.Builder
			b.WriteString(`{"status":"async","retcode":1,"data":null`)
			if echo != nil {
				b.WriteString(`,"echo":`)
				b.Write(echo)
			}
			b.WriteString("}")
			writeJSON(w, http.StatusOK, []byte(b.String()))
			return false
		case "hangup":
			panic(http.ErrAbortHandler)
		case "slow":
			ms, err := strconv.Atoi(arg)
			if err != nil || ms < 0 {
				continue
			}
			d := min(time.Duration(ms)*time.Millisecond, maxSlow)
			timer := time.NewTimer(d)
			select {
			case <-timer.C:
			case <-r.Context().Done():
				timer.Stop()
				f.rec.update(rec, func(q *Request) { q.ClientGone = true })
				return false
			}
		}
	}
	return true
}
