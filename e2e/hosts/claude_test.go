//go:build hosts

package hosts

// Claude Code against a stand-in for the Anthropic Messages API
// (ANTHROPIC_BASE_URL), streamed as server-sent events. Claude Code defers
// MCP tools: the model sees their names and loads them with ToolSearch
// first, so its script starts with that call.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// claudeRequest is the part of a Messages request the stand-in reads.
type claudeRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []json.RawMessage `json:"tools"`
}

// claudeTool is the part of a listed tool the stand-in reads.
type claudeTool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// results are the tool_result blocks in the conversation, in order, each
// as the model reads it (content and error flag).
func (c claudeRequest) results() []string {
	var out []string
	for _, m := range c.Messages {
		var blocks []map[string]json.RawMessage
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			var typ string
			_ = json.Unmarshal(b["type"], &typ)
			if typ != "tool_result" {
				continue
			}
			delete(b, "tool_use_id")
			delete(b, "cache_control")
			out = append(out, prettyJSON(b))
		}
	}
	return out
}

func prettyJSON(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// claudeSteps is the script after the ToolSearch call that loads the
// server's tools and the resource reader.
func claudeSteps() []step {
	names := []string{}
	seen := map[string]bool{}
	for _, s := range script {
		if s.Tool != "" && !s.Resource && s.Tool != "no_such_tool" && !seen[s.Tool] {
			seen[s.Tool] = true
			names = append(names, "mcp__"+serverName+"__"+s.Tool)
		}
	}
	names = append(names, "ReadMcpResourceTool")
	load := step{Name: "00-tool-search", Tool: "ToolSearch", Args: fmt.Sprintf(`{"query":%q,"max_results":20}`, "select:"+strings.Join(names, ","))}
	return append([]step{load}, script...)
}

// claudeModel is the stand-in Messages API.
func claudeModel(c **conductor, r *run) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		switch {
		case strings.HasSuffix(req.URL.Path, "/count_tokens"):
			writeJSON(w, map[string]any{"input_tokens": 1})
			return
		case req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/v1/messages"):
			writeJSON(w, map[string]any{})
			return
		}
		var q claudeRequest
		_ = json.Unmarshal(body, &q)
		schemas := map[string]json.RawMessage{}
		main := false
		r.seeTools(q.Tools)
		for _, raw := range q.Tools {
			var t claudeTool
			_ = json.Unmarshal(raw, &t)
			schemas[t.Name] = t.InputSchema
			main = main || t.Name == "ToolSearch" || strings.HasPrefix(t.Name, "mcp__"+serverName+"__")
		}
		var block map[string]any
		var input, stop string
		if !main {
			// Side requests (titles, topic checks) get a short text.
			block, stop = map[string]any{"type": "text", "text": ""}, "end_turn"
			input = "ok"
		} else {
			if *c == nil {
				*c = newConductor(claudeSteps(), func(s step) string {
					switch {
					case s.Resource:
						return "ReadMcpResourceTool"
					case s.Tool == "ToolSearch":
						return s.Tool
					}
					return "mcp__" + serverName + "__" + s.Tool
				}, r.pushEvent)
			}
			next := (*c).next(q.results())
			switch {
			case next.Done:
				block, stop, input = map[string]any{"type": "text", "text": ""}, "end_turn", "done"
			default:
				input = next.Args
				if next.Step.Resource {
					input = resourceArgs(schemas[next.Name], next.Args)
					if input == "{}" {
						input = fmt.Sprintf(`{"server":%q,"uri":%q}`, serverName, next.Args)
					}
				}
				block, stop = map[string]any{"type": "tool_use", "id": "toolu_" + next.ID, "name": next.Name, "input": map[string]any{}}, "tool_use"
			}
		}
		msg := map[string]any{"id": "msg_standin", "type": "message", "role": "assistant", "model": "claude-stand-in", "content": []any{},
			"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}
		if !q.Stream {
			if block["type"] == "text" {
				block["text"] = input
			} else {
				block["input"] = json.RawMessage(input)
			}
			msg["content"], msg["stop_reason"] = []any{block}, stop
			writeJSON(w, msg)
			return
		}
		s := newSSE(w)
		s.data("message_start", map[string]any{"type": "message_start", "message": msg})
		s.data("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
		delta := map[string]any{"type": "input_json_delta", "partial_json": input}
		if block["type"] == "text" {
			delta = map[string]any{"type": "text_delta", "text": input}
		}
		s.data("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
		s.data("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		s.data("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 1}})
		s.data("message_stop", map[string]any{"type": "message_stop"})
	})
}

func TestClaudeCode(t *testing.T) {
	var c *conductor
	r := newRun(t, func(r *run) http.Handler { return claudeModel(&c, r) })
	env := []string{
		"ANTHROPIC_BASE_URL=" + r.model.URL, "ANTHROPIC_API_KEY=fake-anthropic-key-not-a-secret",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1", "DISABLE_BUG_COMMAND=1",
	}
	add := []string{"mcp", "add", "--scope", "user", serverName}
	for k, v := range r.serverEnv() {
		add = append(add, "-e", k+"="+v)
	}
	add = append(append(add, "--", self), teeArgs(r.teeLog)...)
	r.exec("claude", add, env...)
	r.exec("claude", []string{"-p", "Use the snowluma tools.", "--output-format", "stream-json", "--verbose",
		"--allowedTools", "mcp__" + serverName + ",ReadMcpResourceTool"}, env...)
	require.NotNil(t, c, "Claude Code never asked the stand-in with the server's tools listed")
	r.check("claude-code", c)
	r.checkSnowLuma()
}
