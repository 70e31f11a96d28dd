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
			"{\n  \"data\": {\n    \"message_id\": -1559550018,\n    \"size\": \"10\",\n    \"n\": null,\n    \"o\": {}\n  }\n}"},
		{"renders an error with a null result and its own text", &Result{IsError: true, Text: "nope"}, true, `null`, "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := Render(tt.result)
			assert.Equal(t, tt.isError, res.IsError)
			sc, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(sc), `{"result":`+tt.sc+`,"diagnostics":`), string(sc))
			assert.Equal(t, tt.text, res.Content[0].(*mcp.TextContent).Text)
		})
	}
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
