//go:build hosts

package hosts

// What the stand-in model APIs share: naming a step the way a host lists
// its tools, filling a resource tool's arguments from its schema, and
// writing server-sent events.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// toolNamer names steps from the tools a host listed: a server tool is
// the listed name that ends with it and names the server; an unknown one
// is spelled as the host spells the server's tools.
func toolNamer(listed []string, resourceTool, prefix string) func(step) string {
	return func(s step) string {
		if s.Resource {
			return resourceTool
		}
		for _, n := range listed {
			if strings.HasSuffix(n, s.Tool) && strings.Contains(n, serverName) {
				return n
			}
		}
		return prefix + s.Tool
	}
}

// resourceArgs fills the host's resource-reading tool's parameters from
// its JSON schema: the one naming a URI gets uri, the one naming a
// server gets the server's name.
func resourceArgs(schema json.RawMessage, uri string) string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	args := map[string]string{}
	for k := range s.Properties {
		switch lk := strings.ToLower(k); {
		case strings.Contains(lk, "uri"):
			args[k] = uri
		case strings.Contains(lk, "server"):
			args[k] = serverName
		}
	}
	b, _ := json.Marshal(args)
	return string(b)
}

// sse writes server-sent events.
type sse struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

// data writes one event: an "event:" line when name is set, then v as JSON.
func (s sse) data(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
