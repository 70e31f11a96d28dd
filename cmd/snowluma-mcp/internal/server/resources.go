package server

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/catalog/search"
)

// The catalog resource and the per-action template.
const (
	catalogURI     = "snowluma://onebot/actions"
	actionTemplate = "snowluma://onebot/actions/{name}"
	actionPrefix   = catalogURI + "/"
)

func addResources(s *mcp.Server, cat *catalog.Catalog) {
	s.AddResource(&mcp.Resource{
		URI: catalogURI, Name: "onebot-actions", Title: "SnowLuma OneBot action catalog",
		Description: "SnowLuma OneBot v11 动作目录全文（catalog）：版本、分类与每个动作的完整定义。",
		MIMEType:    "application/json", Size: int64(len(cat.Raw())),
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: catalogURI, MIMEType: "application/json", Text: string(cat.Raw()),
		}}}, nil
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: actionTemplate, Name: "onebot-action", Title: "One OneBot action's contract",
		Description: "单个动作的完整定义（action contract）；{name} 可为动作名或别名。",
		MIMEType:    "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		a, ok := lookupURI(cat, uri)
		if !ok {
			return nil, resourceNotFound(uri, "Resource not found: no action of that name or alias is in the catalog"+offered(cat, uri)+"; list_actions or search_actions finds the right name")
		}
		text, err := json.MarshalIndent(a, "", "  ")
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: uri, MIMEType: "application/json", Text: string(text),
		}}}, nil
	})
}

// offered names the real actions an unknown name in uri may mean
// (search.Offer), for the not-found message; "" when none.
func offered(cat *catalog.Catalog, uri string) string {
	rest, _ := strings.CutPrefix(uri, actionPrefix)
	name, err := url.PathUnescape(rest)
	if err != nil {
		name = rest
	}
	offer := search.For(cat).Offer(name)
	if len(offer) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(offer, " or ") + "? (read " + actionPrefix + offer[0] + ")"
}

// lookupURI extracts {name} from an action URI; the SDK matches templates
// but leaves variable extraction to us, and has no API for it that a
// contract test could call.
func lookupURI(cat *catalog.Catalog, uri string) (*catalog.Action, bool) {
	rest, ok := strings.CutPrefix(uri, actionPrefix)
	if !ok || strings.ContainsAny(rest, "/?#") {
		return nil, false
	}
	name, err := url.PathUnescape(rest)
	if err != nil {
		return nil, false
	}
	return cat.Lookup(name)
}
