package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

type searchArgs struct {
	Query string `json:"query" jsonschema:"要查找的文字（query），例如 group、禁言、msg；keywords 模式下用空格分词，如 \"群 禁言\"。"`
	Match string `json:"match,omitempty" jsonschema:"匹配方式（match mode）：substring 子串（默认），keywords 关键词+同义词+排序。" schema:"enum=substring|keywords,default=substring"`
	filterArgs
}

// SearchActions finds catalog actions by case-insensitive substring or, on
// request, by ranked keywords with synonyms.
func SearchActions(d *Deps) *pipeline.Tool {
	return pipeline.NewTool(pipeline.Spec{
		Name:        "search_actions",
		Description: "搜索目录中的动作（search actions）。默认不区分大小写的子串匹配（动作名、别名、摘要、分类），保持目录顺序；match=\"keywords\" 时按空格拆词、全部命中（AND）、识别常见中英同义词（群/group、禁言/mute/ban、消息/message/msg…），精确动作名与别名排最前。可过滤与分页。",
		Summary: lang.Text{
			EN: "Searches the actions by name, alias, summary and category, in English or Chinese.",
			ZH: "按名称、别名、说明和分类搜索动作，中英文都可以。",
		},
		Mode: config.ModeDocs, Annotations: readOnlyDocs,
		Result: compactResultSchema,
	}, func(ctx context.Context, c *pipeline.Call, args *searchArgs) (*pipeline.Result, error) {
		if err := checkCategory(d, args.Category); err != nil {
			return nil, err
		}
		found := d.Catalog.Search(args.Query, args.filter())
		if args.Match == "keywords" {
			found = d.Catalog.SearchKeywords(args.Query, args.filter())
		}
		return &pipeline.Result{Payload: args.page(found)}, nil
	})
}
