package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// Cache lifetimes from the product's cache table (CACHE-1).
const staticTTL = 300_000

// cacheHints returns the hook that sets the cache hints of list and read
// results. Tool calls never get any. The hints are advice to clients;
// nothing here caches.
func cacheHints(events bool) func(context.Context, mcp.Request, *mcp.Cacheable) {
	return func(ctx context.Context, req mcp.Request, c *mcp.Cacheable) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			// Private: the mode decides which tools exist, and the client's
			// MCP Apps support whether they carry UI metadata (appsGate).
			c.TTLMs, c.CacheScope = staticTTL, "private"
		case *mcp.ListResourcesRequest:
			// Private: only MCP Apps clients see the panel (appsGate).
			c.TTLMs, c.CacheScope = staticTTL, "private"
			if events {
				// Event resources come and go with every subscription.
				c.TTLMs = 0
			}
		case *mcp.ListResourceTemplatesRequest:
			c.TTLMs, c.CacheScope = staticTTL, "public"
		case *mcp.ReadResourceRequest:
			// Bundled static data (the catalog, the message preview panel)
			// unless it is an event resource.
			c.TTLMs, c.CacheScope = staticTTL, "public"
			if r.Params != nil && strings.HasPrefix(r.Params.URI, hub.URIPrefix) {
				// Live, and one account's private messages.
				c.TTLMs, c.CacheScope = 0, "private"
			}
		}
	}
}
