package server

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/config"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// connect runs a docs-mode server in memory and returns a client session.
func connect(t *testing.T, version string) *mcp.ClientSession {
	t.Helper()
	cat, err := catalog.Load()
	require.NoError(t, err)
	s := New(Options{Config: &config.Config{Mode: config.ModeDocs, Timeout: time.Second}, Catalog: cat, Log: io.Discard})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

var generations = []string{"2026-07-28", "2025-11-25"}

func TestCacheHintsByGeneration(t *testing.T) {
	t.Parallel()
	for _, v := range generations {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, v)
			ctx := context.Background()
			tools, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			templates, err := cs.ListResourceTemplates(ctx, nil)
			require.NoError(t, err)
			read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: catalogURI})
			require.NoError(t, err)
			if v == ModernVersion {
				assert.Equal(t, mcp.Cacheable{TTLMs: 300000, CacheScope: "private"}, tools.Cacheable)
				assert.Equal(t, mcp.Cacheable{TTLMs: 300000, CacheScope: "public"}, templates.Cacheable)
				assert.Equal(t, mcp.Cacheable{TTLMs: 300000, CacheScope: "public"}, read.Cacheable)
			} else {
				assert.Equal(t, mcp.Cacheable{}, tools.Cacheable, "legacy replies carry no cache hints")
				assert.Equal(t, mcp.Cacheable{}, templates.Cacheable)
				assert.Equal(t, mcp.Cacheable{}, read.Cacheable)
			}
			assert.Len(t, tools.Tools, 5)
			require.Len(t, templates.ResourceTemplates, 1)
			assert.Equal(t, actionTemplate, templates.ResourceTemplates[0].URITemplate)
		})
	}
}

func TestReadActionResource(t *testing.T) {
	t.Parallel()
	cs := connect(t, ModernVersion)
	tests := []struct {
		name string
		uri  string
		want string
	}{
		{"reads an action", "snowluma://onebot/actions/get_msg", "get_msg"},
		{"resolves an alias", "snowluma://onebot/actions/nc_get_rkey", "get_rkey"},
		{"unescapes the name", "snowluma://onebot/actions/%2Eocr_image", "ocr_image"},
		{"refuses an unknown name", "snowluma://onebot/actions/nope", ""},
		{"refuses a nested path", "snowluma://onebot/actions/get_msg/x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
			if tt.want == "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "Resource not found")
				return
			}
			require.NoError(t, err)
			var a catalog.Action
			require.NoError(t, json.Unmarshal([]byte(res.Contents[0].Text), &a))
			assert.Equal(t, tt.want, a.Name)
			assert.NotEmpty(t, a.Examples)
		})
	}
}

func TestAdaptRendersEveryOutcome(t *testing.T) {
	t.Parallel()
	spec := &pipeline.Tool{Name: "t"}
	tests := []struct {
		name    string
		handler pipeline.Handler
		isError bool
		result  string
		text    string
	}{
		{"keeps raw JSON byte for byte", func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
			return &pipeline.Result{Payload: json.RawMessage(`{"data":{"message_id":-1559550018,"size":"10","n":null,"o":{}}}`)}, nil
		}, false, `{"data":{"message_id":-1559550018,"size":"10","n":null,"o":{}}}`, "{\n  \"data\": {\n    \"message_id\": -1559550018,\n    \"size\": \"10\",\n    \"n\": null,\n    \"o\": {}\n  }\n}"},
		{"renders an error with a null result", func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
			return &pipeline.Result{IsError: true, Text: "nope"}, nil
		}, true, `null`, "nope"},
		{"survives a panic outside the stages", func(context.Context, *pipeline.Call) (*pipeline.Result, error) { panic("x") }, true, `null`, "internal error while handling t"},
		{"survives an escaped error", func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return nil, io.EOF }, true, `null`, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := adapt(spec, tt.handler, time.Now)(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{}})
			require.NoError(t, err)
			assert.Equal(t, tt.isError, res.IsError)
			sc, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(sc), `{"result":`+tt.result+`,"diagnostics":`), string(sc))
			assert.Equal(t, tt.text, res.Content[0].(*mcp.TextContent).Text)
		})
	}
}
