package server

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// connect runs a docs-mode server in memory and returns a client session.
func connect(t *testing.T, version string) *mcp.ClientSession {
	t.Helper()
	s := New(options(t, &config.Config{Mode: config.ModeDocs, Timeout: time.Second}))
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
			if v == generation.ModernVersion {
				assert.Equal(t, mcp.Cacheable{TTLMs: 300000, CacheScope: "private"}, tools.Cacheable)
				assert.Equal(t, mcp.Cacheable{TTLMs: 300000, CacheScope: "public"}, templates.Cacheable)
				assert.Equal(t, mcp.Cacheable{TTLMs: 300000, CacheScope: "public"}, read.Cacheable)
			} else {
				assert.Equal(t, mcp.Cacheable{}, tools.Cacheable, "legacy replies carry no cache hints")
				assert.Equal(t, mcp.Cacheable{}, templates.Cacheable)
				assert.Equal(t, mcp.Cacheable{}, read.Cacheable)
			}
			var want, got []string
			for _, tl := range options(t, &config.Config{Mode: config.ModeDocs}).Tools {
				if config.ModeDocs.Allows(tl.MinMode) && !tl.Tasks {
					want = append(want, tl.Name)
				}
			}
			for _, tl := range tools.Tools {
				got = append(got, tl.Name)
			}
			assert.ElementsMatch(t, want, got, "a docs server lists the handlers' docs tools")
			require.Len(t, templates.ResourceTemplates, 1)
			assert.Equal(t, actionTemplate, templates.ResourceTemplates[0].URITemplate)
		})
	}
}

func TestReadActionResource(t *testing.T) {
	t.Parallel()
	cs := connect(t, generation.ModernVersion)
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

func TestNewCallCopiesWhatTheStagesNeed(t *testing.T) {
	t.Parallel()
	tool := &pipeline.Tool{Spec: pipeline.Spec{Name: "t"}}
	tests := []struct {
		name  string
		req   *mcp.CallToolRequest
		check func(t *testing.T, c *pipeline.Call)
	}{
		{"starts an empty call without params", &mcp.CallToolRequest{}, func(t *testing.T, c *pipeline.Call) {
			assert.Nil(t, c.Arguments)
			assert.Nil(t, c.Resume)
			assert.Nil(t, c.Notify, "no token, no progress")
		}},
		{"copies arguments and _meta", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{
			Arguments: json.RawMessage(`{"a":1}`), Meta: mcp.Meta{"traceparent": "x"},
		}}, func(t *testing.T, c *pipeline.Call) {
			assert.JSONEq(t, `{"a":1}`, string(c.Arguments))
			assert.Equal(t, "x", c.Meta["traceparent"])
		}},
		{"reads a modern request's own capabilities", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{
			"io.modelcontextprotocol/protocolVersion":    generation.ModernVersion,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{}},
		}}}, func(t *testing.T, c *pipeline.Call) {
			assert.True(t, c.Client.Modern)
			assert.True(t, c.Client.FormElicitation())
		}},
		{"carries a continuation", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{
			RequestState: "s", InputResponses: mcp.InputResponseMap{"params": &mcp.ElicitResult{Action: "accept"}},
		}}, func(t *testing.T, c *pipeline.Call) {
			require.NotNil(t, c.Resume)
			assert.Equal(t, "s", c.Resume.State)
			assert.Contains(t, c.Resume.Responses, "params")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCall(tool, tt.req)
			assert.Same(t, tool, c.Tool)
			tt.check(t, c)
		})
	}
}
