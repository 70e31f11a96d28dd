package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// noArgs is the argument type of tools that take none.
type noArgs struct{}

// ListCategories lists the catalog's categories with their action counts.
func ListCategories(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[noArgs, []catalog.Category](pipeline.Spec{
		Name:        "list_categories",
		Description: "列出动作分类及各类动作数（list categories）。",
		Sample:      pipeline.Sample{Good: `{}`, Bad: `{"extra":true}`},
		Summary: lang.Text{
			EN: "Lists the action categories.",
			ZH: "列出动作的分类。",
		},
		MinMode: config.ModeDocs, Annotations: readOnlyDocs,
	}, func(ctx context.Context, c *pipeline.Call, _ *noArgs) (pipeline.Reply[[]catalog.Category], error) {
		return pipeline.Reply[[]catalog.Category]{Payload: d.Catalog.Categories()}, nil
	})
}
