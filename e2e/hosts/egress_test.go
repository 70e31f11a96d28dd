//go:build hosts

package hosts

// The proxy every host is pointed at (HTTPS_PROXY, HTTP_PROXY,
// ALL_PROXY): it records each request and refuses it, so that a host's
// attempt to reach anything but 127.0.0.1 is reported by name and fails
// the run. make test-hosts also runs the suite in a network namespace with
// only loopback, so a host that ignores the proxy cannot get out either.

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
)

// recorder is the refusing proxy.
type recorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen map[string]int
}

func newRecorder() *recorder {
	r := &recorder{seen: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		target := req.Host
		if req.Method != http.MethodConnect {
			target = req.URL.String()
		}
		r.mu.Lock()
		r.seen[fmt.Sprintf("%s %s", req.Method, target)]++
		r.mu.Unlock()
		http.Error(w, "snowluma host suite: no connection leaves 127.0.0.1", http.StatusForbidden)
	}))
	return r
}

// url is the proxy's address.
func (r *recorder) url() string { return r.srv.URL }

// attempts lists what was refused, sorted, with counts.
func (r *recorder) attempts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k, n := range r.seen {
		out = append(out, fmt.Sprintf("%s (%d×)", k, n))
	}
	sort.Strings(out)
	return out
}

func (r *recorder) close() { r.srv.Close() }

// proxyEnv points a host at the recorder; the stand-in model API and the
// fake are on 127.0.0.1, which NO_PROXY exempts.
func proxyEnv() []string {
	u := egress.url()
	return []string{
		"HTTPS_PROXY=" + u, "HTTP_PROXY=" + u, "ALL_PROXY=" + u,
		"https_proxy=" + u, "http_proxy=" + u, "all_proxy=" + u,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
}

// onlyLoopback verifies that the run sees no network but loopback, as
// isolated.sh arranges: an interface that is up and not loopback means the
// namespace did not take.
func onlyLoopback() error {
	ifs, err := net.Interfaces()
	if err != nil {
		return err
	}
	for _, i := range ifs {
		if i.Flags&net.FlagUp != 0 && i.Flags&net.FlagLoopback == 0 {
			return fmt.Errorf("interface %s is up: the suite must run in a network namespace with only loopback (isolated.sh)", i.Name)
		}
	}
	return nil
}
