package server

// The event resources as the SDK serves them: the events package knows
// what a read and a list entry say; this middleware routes every read
// under the event prefix there, adds the active resources to
// resources/list, and makes the answers what each generation expects.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/mcp/events"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
)

// addEventResources registers the event template, so resources/templates/list
// shows it; eventResources serves every read under it.
func addEventResources(s *mcp.Server, h *hub.Hub) {
	s.AddResourceTemplate(events.Template, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return readEvents(h, req.Params.URI, generation.Modern(req))
	})
}

// eventResources lists the active event resources after the static ones
// and reads every URI under the event prefix, whether the template
// matches it or not.
func eventResources(h *hub.Hub) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.ReadResourceRequest); ok && r.Params != nil && strings.HasPrefix(r.Params.URI, hub.URIPrefix) {
				return readEvents(h, r.Params.URI, generation.Modern(req))
			}
			res, err := next(ctx, method, req)
			list, ok := res.(*mcp.ListResourcesResult)
			if method != "resources/list" || err != nil || !ok || list.NextCursor != "" {
				return res, err
			}
			list.Resources = append(list.Resources, events.Resources(h)...)
			return res, nil
		}
	}
}

// readEvents is one event resource read as the SDK sends it. A URI that
// names no active resource is this server's resource-not-found, whose code
// notFoundCodes sets per generation. A 2026-07-28 read is marked complete
// here, because the SDK marks only the reads it routes itself.
func readEvents(h *hub.Hub, uri string, modern bool) (*mcp.ReadResourceResult, error) {
	text, err := events.Read(h, uri)
	if errors.Is(err, events.ErrNotFound) {
		return nil, resourceNotFound(uri, err.Error())
	}
	if err != nil {
		return nil, err
	}
	res := &mcp.ReadResourceResult{}
	if modern {
		if err := markComplete(res); err != nil {
			return nil, err
		}
	}
	res.Contents = []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: text}}
	// Live, and one account's private messages.
	res.TTLMs, res.CacheScope = 0, "private"
	return res, nil
}

// completeRead is the one part of a read result markComplete sets.
var completeRead = []byte(`{"resultType":"complete"}`)

// markComplete gives an empty read result resultType "complete", which
// every 2026-07-28 result must carry (clients reject one without it). The
// SDK keeps the field unexported and sets it only on reads it routes
// itself; its own decoder is the one public way to set it. Contract test:
// TestSDKReadResultTypeIsSetOnlyByDecoding.
func markComplete(res *mcp.ReadResourceResult) error {
	return json.Unmarshal(completeRead, res)
}
