package e2e

// Calling tools through the SDK and checking the invariants every tool
// result must keep, whatever the test is about: structuredContent
// {result, diagnostics} validates against the tool's advertised
// outputSchema (with the product's real validator), exactly one text block
// that is the compact result (or, for tool errors, the diagnostics message,
// outcome and next step; an envelope that is no success is followed by a
// second block with those), a valid _meta.traceparent, and no token anywhere.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

// diagnostics is structuredContent.diagnostics.
type diagnostics struct {
	Outcome  string `json:"outcome"`
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	NextStep string `json:"next_step"`
	// RetryAfterMS and HeldMS come with paced sends.
	RetryAfterMS int64 `json:"retry_after_ms"`
	HeldMS       int64 `json:"held_ms"`
}

// toolResult is a checked tool result.
type toolResult struct {
	IsError     bool
	Text        string
	Result      json.RawMessage // structuredContent.result (re-encoded by the SDK client)
	Diag        diagnostics
	Traceparent string
	Raw         *mcp.CallToolResult
	// Verdict is the second text block of a result that is not a success
	// nor a tool error (a business failure's), "" otherwise.
	Verdict string
}

// decodeResult decodes Result into v.
func (r toolResult) decodeResult(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Result, v), "result: %s", r.Result)
}

// call calls a tool with optional _meta and checks the common invariants.
func (s *server) call(t *testing.T, name string, args any, meta mcp.Meta) toolResult {
	t.Helper()
	res, err := s.callRaw(testCtx(t), name, args, meta)
	require.NoError(t, err, "tools/call %s", name)
	return s.check(t, name, res)
}

// callRaw calls a tool and returns what the SDK returned, unchecked.
func (s *server) callRaw(ctx context.Context, name string, args any, meta mcp.Meta) (*mcp.CallToolResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	p := &mcp.CallToolParams{Name: name, Arguments: args}
	if meta != nil {
		// The SDK adds its own keys to _meta; never let it touch a map a
		// parallel test may share.
		p.Meta = mcp.Meta{}
		for k, v := range meta {
			p.Meta[k] = v
		}
	}
	return s.session.CallTool(ctx, p)
}

// check verifies the invariants of one tool result.
func (s *server) check(t *testing.T, name string, res *mcp.CallToolResult) toolResult {
	t.Helper()
	require.NotNil(t, res)
	tool, ok := s.tools[name]
	require.True(t, ok, "%s is not advertised", name)
	require.NotNil(t, tool.OutputSchema, "%s has no outputSchema", name)

	require.NotNil(t, res.StructuredContent, "%s: no structuredContent", name)
	sc := mustJSON(t, res.StructuredContent)
	v, err := schema.Compile(mustJSON(t, tool.OutputSchema))
	require.NoError(t, err, "%s: outputSchema does not compile", name)
	require.NoError(t, v.Validate(sc, "structuredContent"), "%s: structuredContent %s", name, sc)

	var body struct {
		Result      json.RawMessage `json:"result"`
		Diagnostics diagnostics     `json:"diagnostics"`
	}
	require.NoError(t, json.Unmarshal(sc, &body))
	out := toolResult{IsError: res.IsError, Result: body.Result, Diag: body.Diagnostics, Raw: res}

	text, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "%s: the content block is text", name)
	out.Text = text.Text
	verdict := body.Diagnostics.Message
	if o := body.Diagnostics.Outcome; o == "failed" || o == "unknown" {
		verdict += "\noutcome: " + o + " ("
	}
	if res.IsError {
		require.Len(t, res.Content, 1, "%s: a tool error is one text block", name)
		assert.Equal(t, "null", string(body.Result), "%s: a tool error has result null", name)
		assert.True(t, strings.HasPrefix(text.Text, verdict), "%s: a tool error's text is its message and outcome: %q", name, text.Text)
		assert.NotEmpty(t, body.Diagnostics.Kind, "%s: a tool error names its kind", name)
		assert.Contains(t, []string{"failed", "unknown"}, body.Diagnostics.Outcome)
		if body.Diagnostics.NextStep != "" {
			assert.True(t, strings.HasSuffix(text.Text, "\nnext_step: "+body.Diagnostics.NextStep), "%s: a tool error's text ends with its next step: %q", name, text.Text)
		}
	} else {
		assertCompact(t, body.Result, text.Text)
		if body.Diagnostics.Outcome == "success" {
			require.Len(t, res.Content, 1, "%s: a success is one text block", name)
		} else {
			require.Len(t, res.Content, 2, "%s: an unconfirmed or failed envelope is followed by its verdict", name)
			second, ok := res.Content[1].(*mcp.TextContent)
			require.True(t, ok)
			assert.True(t, strings.HasPrefix(second.Text, verdict), "%s: the verdict block: %q", name, second.Text)
			out.Verdict = second.Text
		}
	}

	tp, _ := res.Meta["traceparent"].(string)
	assert.NotEmpty(t, fake.TraceIDOf(tp), "%s: _meta.traceparent %q is not a valid traceparent", name, tp)
	out.Traceparent = tp

	assertNoSecrets(t, "a tool result", string(sc), text.Text, string(mustJSON(t, res.Meta)))
	// Later failure messages quote these; keep any leaked token out of logs.
	out.Text, out.Result = redact(out.Text), json.RawMessage(redact(string(out.Result)))
	return out
}

// assertCompact checks that text is the compact JSON form of a document
// equal to result.
func assertCompact(t *testing.T, result json.RawMessage, text string) {
	t.Helper()
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, []byte(text)), "the text block is not JSON: %q", text)
	assert.Equal(t, compact.String(), text, "the text block is not compact JSON")
	assert.JSONEq(t, string(result), text, "the text block differs from structuredContent.result")
}

// newTrace returns a fresh trace ID and a caller traceparent carrying it.
func newTrace(t testing.TB) (traceID, traceparent string) {
	t.Helper()
	traceID = randomHex(t, 16)
	return traceID, "00-" + traceID + "-" + randomHex(t, 8) + "-01"
}

// newTag returns a unique tag for the "_fake" marker.
func newTag(t testing.TB) string { return randomHex(t, 8) }

func randomHex(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}

// execCall is a checked execution-tool result plus the trace ID and tag
// that identify its requests at the fake.
type execCall struct {
	res     toolResult
	traceID string
	tag     string
}

// run calls an execution tool for action with params, tagging the call
// with a fresh trace and a tag so the test can find exactly its requests.
// faults go into the "_fake" marker next to the tag.
func (s *server) run(t *testing.T, tool, action string, params map[string]any, faults string) execCall {
	t.Helper()
	traceID, tp := newTrace(t)
	tag := newTag(t)
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	marker := "tag:" + tag
	if faults != "" {
		marker += "," + faults
	}
	p[fake.Marker] = marker
	res := s.call(t, tool, map[string]any{"action": action, "params": p}, mcp.Meta{"traceparent": tp})
	return execCall{res: res, traceID: traceID, tag: tag}
}

// sent returns the requests the fake received for this call, requiring
// that the trace ID and the tag agree. The one request a call may make
// without the tag is the get_login_info with which the lockdown stage
// learns the account before marking a result that holds someone's words.
func (c execCall) sent(t *testing.T) []fake.Request {
	t.Helper()
	byTrace, byTag := snow.ByTrace(c.traceID), snow.ByTag(c.tag)
	lookups := 0
	for _, r := range byTrace {
		if r.Action == "get_login_info" && r.Marker == "" {
			lookups++
		}
	}
	require.LessOrEqual(t, lookups, 1, "the account is looked up at most once per call")
	require.Equal(t, len(byTag), len(byTrace)-lookups, "requests found by tag and by trace ID differ")
	return byTag
}

// assertNothingSent requires that no request of this call reached the fake.
func (c execCall) assertNothingSent(t *testing.T) {
	t.Helper()
	assert.Empty(t, snow.ByTrace(c.traceID), "a request carrying the call's trace reached SnowLuma")
	assert.Empty(t, snow.ByTag(c.tag), "a request carrying the call's tag reached SnowLuma")
}
