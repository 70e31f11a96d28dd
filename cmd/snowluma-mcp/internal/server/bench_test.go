package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

const statusReply = `{"status":"ok","retcode":0,"data":{"online":true,"good":true}}`

func loopback(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = io.WriteString(w, statusReply)
	}))
	b.Cleanup(srv.Close)
	return srv
}

func session(b *testing.B, cfg *config.Config) *mcp.ClientSession {
	s := New(options(b, cfg))
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	require.NoError(b, err)
	b.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: generation.ModernVersion})
	require.NoError(b, err)
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// pipelineTool returns one tool's handler wrapped in the whole pipeline, as
// the SDK calls it, without the SDK's transport and JSON-RPC layers.
func pipelineTool(b *testing.B, cfg *config.Config, name string) mcp.ToolHandler {
	o := options(b, cfg)
	chain := pipeline.Chain(o.Stages.Call...)
	for _, t := range o.Tools {
		if t.Name == name {
			return adapt(t, chain(t, t.Handle))
		}
	}
	b.Fatalf("no tool %s", name)
	return nil
}

func benchPipeline(b *testing.B, h mcp.ToolHandler, args string) {
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "x", Arguments: []byte(args)}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := h(context.Background(), req)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkPipelineDocsCall measures get_action through every stage.
func BenchmarkPipelineDocsCall(b *testing.B) {
	benchPipeline(b, pipelineTool(b, &config.Config{Mode: config.ModeDocs, Timeout: time.Minute}, "get_action"), `{"name":"send_group_msg"}`)
}

// BenchmarkPipelineQueryAction measures query_action through every stage
// and the OneBot client against a loopback server; compare with
// BenchmarkDirectHTTP.
func BenchmarkPipelineQueryAction(b *testing.B) {
	u, _ := url.Parse(loopback(b).URL)
	benchPipeline(b, pipelineTool(b, &config.Config{Mode: config.ModeRead, Endpoint: u, Timeout: time.Minute}, "query_action"), `{"action":"get_status"}`)
}

// BenchmarkMCPDocsToolCall measures a catalog tool call through an SDK
// client and server (in memory) and the whole stage pipeline.
func BenchmarkMCPDocsToolCall(b *testing.B) {
	cs := session(b, &config.Config{Mode: config.ModeDocs, Timeout: time.Minute})
	params := &mcp.CallToolParams{Name: "get_action", Arguments: map[string]any{"name": "send_group_msg"}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkMCPQueryAction measures query_action end to end through the SDK against a loopback
// OneBot server; compare with BenchmarkDirectHTTP.
func BenchmarkMCPQueryAction(b *testing.B) {
	u, _ := url.Parse(loopback(b).URL)
	cs := session(b, &config.Config{Mode: config.ModeRead, Endpoint: u, Timeout: time.Minute})
	params := &mcp.CallToolParams{Name: "query_action", Arguments: map[string]any{"action": "get_status"}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkDirectHTTP is the floor: the same OneBot request with a plain
// HTTP client and no MCP at all.
func BenchmarkDirectHTTP(b *testing.B) {
	srv := loopback(b)
	client := &http.Client{}
	body := []byte(`{"action":"get_status","params":{}}`)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := client.Post(srv.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
}
