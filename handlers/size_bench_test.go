package handlers

// What a model reads, in bytes: the tool definitions a host puts in its
// context (each tool's name, description and input schema as compact
// UTF-8 JSON, in write mode) and the text of a get_action answer. They
// are benchmarks, not tests, so make bench tabulates them:
//
//	go test -run '^$' -bench 'ToolDefinitionBytes|GetActionTextBytes' ./handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/payload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// modelRead is the part of a definition a model reads.
func modelRead(tb testing.TB, tl *pipeline.Tool) []byte {
	def := tl.Def()
	b, err := json.Marshal(struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		InputSchema any    `json:"inputSchema"`
	}{def.Name, def.Description, def.InputSchema})
	require.NoError(tb, err)
	var out bytes.Buffer
	require.NoError(tb, json.Compact(&out, b))
	return out.Bytes()
}

// writeModeTools are the tools a write-mode server lists (without the
// tasks extension's and the events tools).
func writeModeTools(tb testing.TB) []*pipeline.Tool {
	var out []*pipeline.Tool
	for _, tl := range All(deps(tb, config.ModeWrite)) {
		if config.ModeWrite.Allows(tl.Mode) && !tl.Tasks {
			out = append(out, tl)
		}
	}
	return out
}

func BenchmarkToolDefinitionBytes(b *testing.B) {
	tools := writeModeTools(b)
	total := 0
	for _, tl := range tools {
		total += len(modelRead(b, tl))
	}
	for _, tl := range tools {
		b.Run(tl.Name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				n = len(modelRead(b, tl))
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(float64(total), "bytes")
		b.ReportMetric(float64(len(tools)), "tools")
	})
}

func BenchmarkGetActionTextBytes(b *testing.B) {
	n := 0
	for b.Loop() {
		n = len(getActionText(b, "send_group_msg"))
	}
	b.ReportMetric(float64(n), "bytes")
}

// TestWhatAModelReadsStaysSmall holds the two figures above to the
// ceilings issue 36 set (a size, not a time): the write-mode definitions
// and get_action's text for send_group_msg.
func TestWhatAModelReadsStaysSmall(t *testing.T) {
	t.Parallel()
	total := 0
	for _, tl := range writeModeTools(t) {
		total += len(modelRead(t, tl))
	}
	assert.LessOrEqual(t, total, 7000, "model-read tool definitions in write mode")
	assert.LessOrEqual(t, len(getActionText(t, "send_group_msg")), 2500, "get_action send_group_msg")
	// Issue 41: 7,359 B before its contract said each thing once.
	assert.LessOrEqual(t, len(getActionText(t, "upload_file_stream")), 5100, "get_action upload_file_stream")
}

// getActionText is the text a host shows for get_action name.
func getActionText(tb testing.TB, name string) string {
	tool := GetAction(deps(tb, config.ModeDocs))
	c := &pipeline.Call{}
	c.Tool, c.Arguments = tool, json.RawMessage(`{"name":"`+name+`"}`)
	r, err := tool.Handle(context.Background(), c)
	require.NoError(tb, err)
	raw, err := payload.Encode(r.Payload)
	require.NoError(tb, err)
	return pipeline.Render(&pipeline.Result{Payload: raw, Diagnostics: pipeline.Diagnostics{Outcome: pipeline.OutcomeSuccess}}).Content[0].(*mcp.TextContent).Text
}
