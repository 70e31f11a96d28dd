package server

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/hub"
)

// layer is one receiving middleware the server installs, named so that
// TestMiddlewareOrder can hold the order to layerPlaces.
type layer struct {
	name string
	mw   mcp.Middleware
}

// layerParts are what the receiving middleware is made of; a nil part
// leaves its layer out.
type layerParts struct {
	log      io.Writer
	parked   *argumentBook  // the Wire's; nil without one
	listens  *listens       // nil without events or task status
	cache    mcp.Middleware // nil when answers are built afresh (tests)
	sessions mcp.Middleware // legacySessions
	tasks    mcp.Middleware // tasks.Gate; nil without tasks
	events   *hub.Hub       // nil without events
}

// layerPlace is one receiving middleware's place, written the way the
// tool-call stages' places are (stages/order.go): its name, why it sits
// where it does, and how it is built from the parts; a nil middleware
// leaves the layer out.
type layerPlace struct {
	name string
	why  string
	new  func(layerParts) mcp.Middleware
}

// layerPlaces is every receiving middleware, the first outermost (the
// SDK's Add order, pinned by the SDK contract test
// TestSDKRunsTheFirstMiddlewareAddedFirst), and the only place the order is
// written. The SDK's own multi-round-trip middleware sits inside all of
// them.
var layerPlaces = []layerPlace{
	{"recover", "outermost, so a panic anywhere below is recovered",
		func(p layerParts) mcp.Middleware { return recoverMethods(p.log) }},
	{"parkedArguments", "puts back the tool-call arguments the Wire parked beside the SDK, before any layer below reads them",
		func(p layerParts) mcp.Middleware { return parkedArguments(p.parked) }},
	{"listens", "sees every request, even a tools/list the cache answers, to learn which legacy sessions exist; " +
		"it gives each listen its record and holds a task listen open",
		func(p layerParts) mcp.Middleware { return p.listens.receivingLayer() }},
	{"cache", "outside everything that shapes the answers it keeps, so it stores what they make",
		func(p layerParts) mcp.Middleware { return p.cache }},
	{"legacyShapes", "outside appsGate, tasksGate and eventResources: it trims and re-encodes the lists and reads they shape",
		func(layerParts) mcp.Middleware { return legacyShapes }},
	{"notFoundCodes", "answers a read of a URI that names nothing with the code of the request's generation " +
		"(-32002 legacy, -32602 modern); outside eventResources and the SDK, whose answers it rewrites",
		func(layerParts) mcp.Middleware { return notFoundCodes }},
	{"legacySessions", "rewrites an initialize before the SDK stores it and serves server/discover on a sink session; " +
		"what lies inside it (the tasks capability in discover) is unaffected",
		func(p layerParts) mcp.Middleware { return p.sessions }},
	{"appsGate", "hides UI metadata and ui:// resources from clients that cannot render them",
		func(layerParts) mcp.Middleware { return appsGate }},
	{"tasksGate", "(tasks.Gate) shows and serves the tasks extension's tools per request, answering a background start with its task handle",
		func(p layerParts) mcp.Middleware { return p.tasks }},
	{"eventResources", "innermost, so legacyShapes still sees (and trims) the event resources it lists and the reads it serves",
		func(p layerParts) mcp.Middleware { return eventLayer(p.events) }},
}

// receivingLayers builds every layerPlace from p, in order, leaving out
// those whose part is absent.
func receivingLayers(p layerParts) []layer {
	var out []layer
	for _, pl := range layerPlaces {
		if mw := pl.new(p); mw != nil {
			out = append(out, layer{pl.name, mw})
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
