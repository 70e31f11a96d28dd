package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		result  *Result
		isError bool
		sc      string
		text    string
	}{
		{"keeps raw JSON byte for byte", &Result{Payload: json.RawMessage(`{"data":{"message_id":-1559550018,"size":"10","n":null,"o":{}}}`)},
			false, `{"data":{"message_id":-1559550018,"size":"10","n":null,"o":{}}}`,
			`{"data":{"message_id":-1559550018,"size":"10","n":null,"o":{}}}`},
		{"writes the text compact, keeping every member", &Result{Payload: json.RawMessage("{\n  \"text\": \"a  b\",\n  \"third_party\": {\"author\": 1}\n}")},
			false, `{"text":"a  b","third_party":{"author":1}}`, `{"text":"a  b","third_party":{"author":1}}`},
		{"renders an error with a null result, its outcome, kind and next step", &Result{IsError: true, Text: "nope", Diagnostics: Diagnostics{Outcome: OutcomeFailed, Kind: "invalid_argument", Message: "nope", NextStep: "Fix it."}},
			true, `null`, "nope\noutcome: failed (not done)\nkind: invalid_argument\nnext_step: Fix it."},
		{"says when SnowLuma may have acted and how long to wait", &Result{IsError: true, Text: "slow", Diagnostics: Diagnostics{Outcome: OutcomeUnknown, Message: "slow", NextStep: "Check.", RetryAfterMS: 1500}},
			true, `null`, "slow\noutcome: unknown (not confirmed: SnowLuma may have acted, so check before repeating a write)\nretry_after_ms: 1500\nnext_step: Check."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := Render(tt.result)
			assert.Equal(t, tt.isError, res.IsError)
			sc, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(sc), `{"result":`+tt.sc+`,"diagnostics":`), string(sc))
			require.Len(t, res.Content, 1)
			assert.Equal(t, tt.text, res.Content[0].(*mcp.TextContent).Text)
		})
	}
}

// TestRenderKeepsAnEnvelopeWholeAndAddsItsVerdict: a business failure's
// first block is SnowLuma's envelope as JSON; the verdict follows it.
func TestRenderKeepsAnEnvelopeWholeAndAddsItsVerdict(t *testing.T) {
	t.Parallel()
	env := `{"status":"failed","retcode":100,"data":null,"wording":"no such group"}`
	res := Render(&Result{Payload: json.RawMessage(env), Diagnostics: Diagnostics{Outcome: OutcomeFailed, Kind: "business_failure", Message: "no such group", NextStep: "Read the wording."}})
	assert.False(t, res.IsError)
	require.Len(t, res.Content, 2)
	assert.JSONEq(t, env, res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, "no such group\noutcome: failed (not done)\nkind: business_failure\nnext_step: Read the wording.", res.Content[1].(*mcp.TextContent).Text)

	ok := Render(&Result{Payload: json.RawMessage(`{"status":"ok"}`), Diagnostics: Diagnostics{Outcome: OutcomeSuccess, Message: "a note"}})
	assert.Len(t, ok.Content, 1, "a success is its payload alone")
}

func TestRenderCopiesMetaAndContinuations(t *testing.T) {
	t.Parallel()
	r := &Result{Meta: map[string]any{"traceparent": "00-x"}, InputRequests: mcp.InputRequestMap{"params": &mcp.ElicitParams{Mode: "form"}}, RequestState: "s"}
	res := Render(r)
	assert.Equal(t, "00-x", res.Meta["traceparent"])
	assert.Equal(t, "s", res.RequestState)
	assert.Empty(t, res.Content, "a question carries no content")
	res.Meta["x"] = 1
	assert.NotContains(t, r.Meta, "x", "the rendered meta is a copy")
}
