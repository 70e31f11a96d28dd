package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

type searchArgs struct {
	Query string `json:"query" jsonschema:"要查找的文字（query），中文或英文均可，如 发送群消息、kick member。"`
	Match string `json:"match,omitempty" jsonschema:"匹配方式（match）：substring 子串（默认）；keywords 分词+同义词，全部词命中。" schema:"enum=substring|keywords,default=substring"`
	filterArgs
}

// SearchActions finds catalog actions by case-insensitive substring or, on
// request, by ranked keywords with synonyms; a substring search that finds
// nothing suggests the closest actions by keywords instead.
func SearchActions(d *Deps) *pipeline.Tool {
	return pipeline.NewTool(pipeline.Spec{
		Name:        "search_actions",
		Description: "搜索目录中的动作（search actions）。默认在动作名、别名、摘要、分类中找子串，按目录顺序；一个也没有时，suggestions 给出按词相关度排序的最多 10 个候选。match=\"keywords\" 时中英文自动分词（无需空格）、识别同义词（踢/kick、撤回/recall…）、要求每个词都命中，精确动作名排最前。可过滤与分页。",
		Mode:        config.ModeDocs, Annotations: readOnlyDocs,
		Result: searchResultSchema,
	}, func(ctx context.Context, c *pipeline.Call, args *searchArgs) (*pipeline.Result, error) {
		if err := checkCategory(d, args.Category); err != nil {
			return nil, err
		}
		var found, suggested []*catalog.Action
		if args.Match == "keywords" {
			found = d.Catalog.SearchKeywords(args.Query, args.filter())
		} else {
			found, suggested = d.Catalog.Find(args.Query, args.filter())
		}
		return &pipeline.Result{Payload: args.page(found, suggested)}, nil
	})
}
