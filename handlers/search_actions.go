package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// SearchActions finds catalog actions by case-insensitive substring.
func SearchActions(d *Deps) Tool {
	return newTool("search_actions",
		"按关键字搜索目录中的动作（search actions）：不区分大小写的子串匹配动作名、别名、摘要和分类，保持目录顺序；可过滤与分页。",
		pipeline.RouteNone, pipeline.AccessDocs, readOnlyDocs,
		`{"type":"object","properties":{
 "query":{"type":"string","description":"要查找的文字（query），例如 group、禁言、msg。"},`+filterProps+`},
 "required":["query"],"additionalProperties":false}`,
		compactResultSchema,
		func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
			var args struct {
				Query string `json:"query"`
				filterArgs
			}
			if err := decode(c.Arguments, &args); err != nil {
				return nil, err
			}
			if err := checkCategory(d, args.Category); err != nil {
				return nil, err
			}
			return &pipeline.Result{Payload: args.page(d.Catalog.Search(args.Query, args.filter()))}, nil
		})
}
