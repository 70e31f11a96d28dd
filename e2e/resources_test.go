package e2e

// The catalog resources (BASE-3): the whole catalog, the per-action
// template with alias resolution, and resource-not-found carrying the URI
// for an unknown name (-32602 at 2026-07-28, -32002 before; issue 20).

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	catalogURI     = "snowluma://onebot/actions"
	actionTemplate = "snowluma://onebot/actions/{name}"
)

func TestCatalogResources(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		ctx := testCtx(t)

		t.Run("resources/list has the catalog", func(t *testing.T) {
			res, err := s.session.ListResources(ctx, nil)
			require.NoError(t, err)
			var uris []string
			for _, r := range res.Resources {
				uris = append(uris, r.URI)
				if r.URI == catalogURI {
					assert.Equal(t, "application/json", r.MIMEType)
				}
			}
			assert.Contains(t, uris, catalogURI)
		})

		t.Run("resources/templates/list has the action template", func(t *testing.T) {
			res, err := s.session.ListResourceTemplates(ctx, nil)
			require.NoError(t, err)
			var templates []string
			for _, r := range res.ResourceTemplates {
				templates = append(templates, r.URITemplate)
			}
			assert.Contains(t, templates, actionTemplate)
		})

		t.Run("reading the catalog gives every action", func(t *testing.T) {
			res, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: catalogURI})
			require.NoError(t, err)
			require.Len(t, res.Contents, 1)
			var doc struct {
				Version    string            `json:"version"`
				Categories []json.RawMessage `json:"categories"`
				Actions    []struct {
					Name string `json:"name"`
				} `json:"actions"`
			}
			require.NoError(t, json.Unmarshal([]byte(res.Contents[0].Text), &doc))
			assert.Equal(t, "1.11.1", doc.Version)
			assert.Len(t, doc.Categories, 11)
			assert.Len(t, doc.Actions, catalogSize)
		})

		tests := []struct {
			name     string
			uri      string
			wantName string
		}{
			{"reading the template by name", catalogURI + "/get_msg", "get_msg"},
			{"reading the template by alias", catalogURI + "/get_ptt_text", "fetch_ptt_text"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri})
				require.NoError(t, err)
				require.Len(t, res.Contents, 1)
				assert.Equal(t, tt.uri, res.Contents[0].URI)
				var a struct {
					Name          string          `json:"name"`
					InputSchema   json.RawMessage `json:"inputSchema"`
					ReturnsSchema json.RawMessage `json:"returnsSchema"`
				}
				require.NoError(t, json.Unmarshal([]byte(res.Contents[0].Text), &a))
				assert.Equal(t, tt.wantName, a.Name)
				assert.NotEmpty(t, a.InputSchema)
				assert.NotEmpty(t, a.ReturnsSchema)
			})
		}

		t.Run("an unknown name is resource-not-found carrying the URI", func(t *testing.T) {
			uri := catalogURI + "/no_such_action"
			_, err := s.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			require.Error(t, err)
			var we *jsonrpc.Error
			require.True(t, errors.As(err, &we), "a JSON-RPC error, got %v", err)
			assert.Equal(t, notFoundCode(version), we.Code)
			var data struct {
				URI string `json:"uri"`
			}
			require.NoError(t, json.Unmarshal(we.Data, &data))
			assert.Equal(t, uri, data.URI)
		})
	})
}
