// Package generation is the one place that decides a request's protocol
// generation and what its client declares: every middleware, the cache's
// variants, the task extension and the transport's hooks ask here, so no
// other file spells a _meta key or compares a version.
package generation

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/uiasset"
)

// ModernVersion is the first protocol revision without initialize.
const ModernVersion = "2026-07-28"

// The _meta keys of a 2026-07-28 request that this server reads, and the
// extensions a client may declare there (or, legacy, in initialize).
const (
	ProtocolVersionKey    = "io.modelcontextprotocol/protocolVersion"
	ClientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
	AppsExtension         = "io.modelcontextprotocol/ui"
	TasksExtension        = "io.modelcontextprotocol/tasks"
)

// Modern reports whether req follows the 2026-07-28 protocol, which the
// SDK decides per request from _meta.
func Modern(req mcp.Request) bool {
	meta, ok := Meta(req)
	return ok && ModernMeta(meta)
}

// Speaks is the protocol version req's client speaks: a 2026-07-28
// request's own (its _meta), a legacy one's as its session's initialize
// negotiated it; "" when neither is known.
func Speaks(req mcp.Request) string {
	if meta, ok := Meta(req); ok && ModernMeta(meta) {
		v, _ := meta[ProtocolVersionKey].(string)
		return v
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss == nil {
		return ""
	}
	if p := ss.InitializeParams(); p != nil {
		return p.ProtocolVersion
	}
	return ""
}

// Meta is req's _meta; ok is false when req has no params at all.
func Meta(req mcp.Request) (mcp.Meta, bool) {
	p := req.GetParams()
	if p == nil {
		return nil, false
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, false // the SDK passes typed nils for omitted params (server's TestSDKPassesOmittedParamsAsATypedNil)
	}
	return p.GetMeta(), true
}

// ModernMeta reports whether a request's _meta names a 2026-07-28 (or
// later) protocol version: the one rule for a request's generation.
func ModernMeta(meta map[string]any) bool {
	v, _ := meta[ProtocolVersionKey].(string)
	return v >= ModernVersion
}

// Version reads params._meta[ProtocolVersionKey] from a request
// the SDK has not decoded yet (the transport's screen hook), reporting
// whether it is there as a string.
func Version(params json.RawMessage) (string, bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return "", false
	}
	var v string
	if json.Unmarshal(p.Meta[ProtocolVersionKey], &v) != nil {
		return "", false
	}
	return v, true
}

// ModernSession reports whether the SDK treats ss as a 2026-07-28 session,
// by the SDK's own rule: the version of its initialize params, the newest
// version while it has none. Only what the SDK does per session (marking a
// read result complete) depends on it; everything of ours is per request.
// SDK contract test (in the server package):
// TestSDKMarksAReadCompleteByTheSessionsVersion.
func ModernSession(ss *mcp.ServerSession) bool {
	if ss == nil {
		return true
	}
	if p := ss.InitializeParams(); p != nil {
		return p.ProtocolVersion >= ModernVersion
	}
	return true
}

// legacyVersions are the SDK's protocol versions that use initialize, the
// newest first.
var legacyVersions = func() []string {
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < ModernVersion {
			out = append(out, v)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}()

// Negotiated is the version a legacy initialize asking for requested ends
// up with: the same one if it is a legacy version the server speaks, the
// newest legacy version otherwise (a modern or unknown one).
func Negotiated(requested string) string {
	if slices.Contains(legacyVersions, requested) {
		return requested
	}
	return legacyVersions[0]
}

// capabilityReader is every server request: legacy capabilities come from
// the session's initialize, modern ones from the request's _meta.
type capabilityReader interface {
	ClientCapabilities() *mcp.ClientCapabilities
}

// Extension returns what req's client declares for the extension
// key, and whether it declares it at all. ClientCapabilities would give the
// same answer, but for a modern request it decodes the whole declaration
// again (a JSON round trip through a fresh 32 KiB decoder buffer) on every
// call; the SDK has already checked that a modern request's declaration
// decodes, so its extensions object is read from _meta as it is, which is
// exactly what decoding would produce. Legacy requests ask the SDK, which
// answers from the session's initialize. It saves a cost, which no test
// can pin; TestClientExtensionAgreesWithTheSDKsCapabilities pins that the
// answer is the SDK's.
func Extension(req mcp.Request, key string) (any, bool) {
	if meta, ok := Meta(req); ok && ModernMeta(meta) {
		return MetaExtension(meta, key)
	}
	cr, ok := req.(capabilityReader)
	if !ok {
		return nil, false
	}
	c := cr.ClientCapabilities()
	if c == nil {
		return nil, false
	}
	v, ok := c.Extensions[key]
	return v, ok
}

// MetaExtension is what a modern request's _meta declares for the
// extension key.
func MetaExtension(meta mcp.Meta, key string) (any, bool) {
	caps, _ := meta[ClientCapabilitiesKey].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	v, ok := ext[key]
	return v, ok
}

// Apps reports whether req's client advertises MCP Apps
// with the HTML profile; an extension entry without that MIME type is a
// host that renders something else.
func Apps(req mcp.Request) bool {
	v, _ := Extension(req, AppsExtension)
	return RendersApps(v)
}

// RendersApps reports whether an MCP Apps extension declaration lists the
// HTML profile.
func RendersApps(decl any) bool {
	ext, ok := decl.(map[string]any)
	if !ok {
		return false
	}
	switch types := ext["mimeTypes"].(type) {
	case []any:
		return slices.Contains(types, any(uiasset.MIMEType))
	case []string:
		return slices.Contains(types, uiasset.MIMEType)
	}
	return false
}

// Tasks reports whether req may see and use the tasks extension: it is
// a 2026-07-28 request whose client capabilities include the extension.
// The server decides per request, as the extension requires: an earlier
// request's declaration counts for nothing.
func Tasks(req mcp.Request) bool {
	meta, _ := Meta(req)
	return MetaDeclaresTasks(meta)
}

// MetaDeclaresTasks is Tasks for the custom task methods, which see
// only their params' _meta.
func MetaDeclaresTasks(meta mcp.Meta) bool {
	if !ModernMeta(meta) {
		return false
	}
	_, ok := MetaExtension(meta, TasksExtension)
	return ok
}
