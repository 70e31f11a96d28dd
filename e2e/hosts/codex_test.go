//go:build hosts

package hosts

// Codex against a stand-in for the OpenAI Responses API (a custom model
// provider with wire_api "responses"): POST /v1/responses answers the
// script's calls as function_call items in the MCP server's namespace.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// codexRequest is the part of a Responses request the stand-in reads.
type codexRequest struct {
	Input []json.RawMessage `json:"input"`
	Tools []json.RawMessage `json:"tools"`
}

// codexItem is an input item, by type.
type codexItem struct {
	Type   string          `json:"type"`
	Output json.RawMessage `json:"output"`
}

// results are the function_call_output items, in order; each item's
// output is what the model reads.
func (c codexRequest) results() []string {
	var out []string
	for _, raw := range c.Input {
		var it codexItem
		if json.Unmarshal(raw, &it) == nil && it.Type == "function_call_output" {
			var s string
			if json.Unmarshal(it.Output, &s) == nil {
				out = append(out, s)
				continue
			}
			b, _ := json.MarshalIndent(it.Output, "", "  ")
			out = append(out, string(b))
		}
	}
	return out
}

// codexTool is a listed tool, or a namespace of them.
type codexTool struct {
	Type       string          `json:"type"`
	Name       string          `json:"name"`
	Parameters json.RawMessage `json:"parameters"`
	Tools      []codexTool     `json:"tools"`
}

// listed flattens the tools into namespace-qualified names
// ("mcp__snowluma__get_action" for a tool in namespace mcp__snowluma) and
// their schemas.
func (c codexRequest) listed() ([]string, map[string]json.RawMessage) {
	var names []string
	schemas := map[string]json.RawMessage{}
	var walk func(prefix string, ts []codexTool)
	walk = func(prefix string, ts []codexTool) {
		for _, t := range ts {
			if len(t.Tools) > 0 {
				walk(t.Name+"__", t.Tools)
				continue
			}
			names = append(names, prefix+t.Name)
			schemas[prefix+t.Name] = t.Parameters
		}
	}
	var ts []codexTool
	for _, raw := range c.Tools {
		var t codexTool
		if json.Unmarshal(raw, &t) == nil {
			ts = append(ts, t)
		}
	}
	walk("", ts)
	return names, schemas
}

// codexModel is the stand-in Responses API.
func codexModel(c **conductor, steps []step, r *run, raw *[]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/responses") {
			writeJSON(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
			return
		}
		if *raw == nil {
			*raw = body
		}
		var q codexRequest
		_ = json.Unmarshal(body, &q)
		listed, schemas := q.listed()
		r.seeTools(q.Tools)
		if *c == nil {
			*c = newConductor(steps, toolNamer(listed, "read_mcp_resource", "mcp__"+serverName+"__"), r.pushEvent)
		}
		next := (*c).next(q.results())
		var item map[string]any
		switch {
		case next.Done:
			item = map[string]any{"type": "message", "role": "assistant", "id": "msg_done", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
		default:
			args := next.Args
			if next.Step.Resource {
				args = resourceArgs(schemas[next.Name], next.Args)
			}
			item = map[string]any{"type": "function_call", "id": "fc_" + next.ID, "call_id": next.ID, "arguments": args, "status": "completed"}
			if ns, name, ok := strings.Cut(next.Name, "__"+serverName+"__"); ok && ns == "mcp" {
				item["namespace"] = "mcp__" + serverName
				item["name"] = name
			} else {
				item["name"] = next.Name
			}
		}
		id := fmt.Sprintf("resp_%d", len(q.Input))
		s := newSSE(w)
		s.data("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id, "status": "in_progress"}})
		s.data("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		s.data("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": id, "status": "completed",
			"usage": map[string]any{"input_tokens": 1, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 1, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 2}}})
	})
}

// TestCodex plays the whole script with MCP tools approved
// (default_tools_approval_mode = "approve"), as for write mode.
func TestCodex(t *testing.T) {
	r, c := runCodex(t, script, "\ndefault_tools_approval_mode = \"approve\"")
	r.check("codex", c)
	r.checkSnowLuma()
}

// TestCodexWithoutApproval plays what codex exec does to a tool that is
// not read-only when the server sets no approval mode: it refuses it
// unless the tool says it is not destructive (issue 50, item 2:
// unsubscribe_events releases a buffer in the server and should say so).
func TestCodexWithoutApproval(t *testing.T) {
	steps := []step{
		{Name: "01-subscribe", Tool: "subscribe_events", Args: `{"self_id":10001}`},
		{Name: "02-unsubscribe", Tool: "unsubscribe_events", Args: `{"uri":"{events_uri}"}`},
		{Name: "03-send", Tool: "invoke_action", Args: `{"action":"send_group_msg","params":{"group_id":123456789,"message":"hello from the host suite"}}`},
	}
	r, c := runCodex(t, steps, "")
	r.check("codex-without-approval", c)
	r.checkNothingSent()
}

// runCodex runs codex exec against the stand-in playing steps, with
// serverExtra added to the server's config table.
func runCodex(t *testing.T, steps []step, serverExtra string) (*run, *conductor) {
	var c *conductor
	var first []byte
	r := newRun(t, func(r *run) http.Handler { return codexModel(&c, steps, r, &first) })
	codexHome := filepath.Join(r.home, ".codex")
	require.NoError(t, os.MkdirAll(codexHome, 0o700))
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "model = %q\nmodel_provider = \"stub\"\ncheck_for_update_on_startup = false\n", "stand-in")
	// What reaches past the model provider: the plugin marketplace and
	// remote plugins (github.com, api.github.com), apps/connectors and
	// plugin sharing (chatgpt.com), update checks. Measured by the
	// refusing proxy on 0.171.0; none touches how MCP results are shown.
	fmt.Fprintf(&cfg, "\n[features]\napps = false\nplugins = false\nremote_plugin = false\nplugin_sharing = false\nin_app_updates = false\ntool_suggest = false\ndaemon_auto_start = false\n")
	fmt.Fprintf(&cfg, "\n[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n\n[otel]\nexporter = \"none\"\nlog_user_prompt = false\n")
	fmt.Fprintf(&cfg, "\n[model_providers.stub]\nname = \"stub\"\nbase_url = %q\nwire_api = \"responses\"\nenv_key = \"OPENAI_API_KEY\"\nrequest_max_retries = 0\nstream_max_retries = 0\n", r.model.URL+"/v1")
	fmt.Fprintf(&cfg, "\n[mcp_servers.%s]\ncommand = %q\nargs = %s%s\n", serverName, self, tomlList(teeArgs(r.teeLog)), serverExtra)
	fmt.Fprintf(&cfg, "\n[mcp_servers.%s.env]\n", serverName)
	for k, v := range r.serverEnv() {
		fmt.Fprintf(&cfg, "%s = %q\n", k, v)
	}
	require.NoError(t, os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(cfg.String()), 0o600))
	r.exec("codex", []string{"exec", "--json", "--skip-git-repo-check", "-C", r.work, "Use the snowluma tools."},
		"CODEX_HOME="+codexHome, "OPENAI_API_KEY=fake-openai-key-not-a-secret")
	if os.Getenv("SNOWLUMA_HOSTS_DUMP") != "" {
		_ = os.WriteFile(os.Getenv("SNOWLUMA_HOSTS_DUMP"), first, 0o600)
	}
	require.NotNil(t, c, "Codex never asked the stand-in for a response")
	return r, c
}

// tomlList writes strings as a TOML array.
func tomlList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
