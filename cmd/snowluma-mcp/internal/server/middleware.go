package server

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// layer is one receiving middleware the server installs, named so that
// TestMiddlewareOrder can pin the order.
type layer struct {
	name string
	mw   mcp.Middleware
}

// layerParts are what the receiving middleware is made of; a nil part
// leaves its layer out.
type layerParts struct {
	log      io.Writer
	listens  *listens       // nil without events or task status
	cache    mcp.Middleware // nil when answers are built afresh (tests)
	sessions mcp.Middleware // legacySessions
	tasks    mcp.Middleware // tasks.Gate; nil without tasks
	events   *hub.Hub       // nil without events
}

// receivingLayers is every receiving middleware, the first outermost (the
// SDK's Add order, pinned by the SDK contract test
// TestSDKRunsTheFirstMiddlewareAddedFirst), and the only place the order is
// written. The SDK's own multi-round-trip middleware sits inside all of
// them.
//
//   - recover is outermost, so a panic anywhere below is recovered.
//   - listens sees every request, even a tools/list the cache answers, to
//     learn which legacy sessions exist; it gives each listen its record
//     and holds a task listen open.
//   - cache sits outside everything that shapes the answers it keeps, so
//     it stores what they make.
//   - legacyShapes sits outside appsGate, tasksGate and eventResources: it
//     trims and re-encodes the lists and reads they shape.
//   - notFoundCodes answers a read of a URI that names nothing with the
//     code of the request's generation (-32002 legacy, -32602 modern); it
//     sits outside eventResources and the SDK, whose answers it rewrites.
//   - legacySessions rewrites an initialize before the SDK stores it and
//     serves server/discover on a sink session; what lies inside it (the
//     tasks capability in discover) is unaffected.
//   - appsGate hides UI metadata and ui:// resources from clients that
//     cannot render them.
//   - tasksGate (tasks.Gate) shows and serves the tasks extension's tools per request,
//     answering a background start with its task handle.
//   - eventResources is innermost, so legacyShapes still sees (and trims)
//     the event resources it lists and the reads it serves.
func receivingLayers(p layerParts) []layer {
	all := []layer{
		{"recover", recoverMethods(p.log)},
		{"listens", p.listens.receivingLayer()},
		{"cache", p.cache},
		{"legacyShapes", legacyShapes},
		{"notFoundCodes", notFoundCodes},
		{"legacySessions", p.sessions},
		{"appsGate", appsGate},
		{"tasksGate", p.tasks},
		{"eventResources", eventLayer(p.events)},
	}
	var out []layer
	for _, l := range all {
		if l.mw != nil {
			out = append(out, l)
		}
	}
	return out
}

// middlewares are the layers' middleware, in order.
func middlewares(layers []layer) []mcp.Middleware {
	out := make([]mcp.Middleware, len(layers))
	for i, l := range layers {
		out[i] = l.mw
	}
	return out
}

// receivingLayer is the registry's receiving middleware; nil without a
// registry.
func (r *listens) receivingLayer() mcp.Middleware {
	if r == nil {
		return nil
	}
	return r.receiving
}

// eventLayer is eventResources for h; nil without events.
func eventLayer(h *hub.Hub) mcp.Middleware {
	if h == nil {
		return nil
	}
	return eventResources(h)
}
