package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// ListCategories lists the catalog's categories with their action counts.
func ListCategories(d *Deps) Tool {
	return newTool("list_categories",
		"列出动作分类及每类动作数（list categories）。只读本地目录。",
		pipeline.RouteNone, pipeline.AccessDocs, readOnlyDocs,
		`{"type":"object","properties":{},"additionalProperties":false}`,
		`{"type":["array","null"],"items":{"type":"object","properties":{"category":{"type":"string"},"count":{"type":"integer"}},"required":["category","count"]}}`,
		func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			return &pipeline.Result{Payload: d.Catalog.Categories()}, nil
		})
}
