package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// checkQuery refuses a query longer than catalog.MaxQueryBytes. It is
// refused here, not declared as maxLength: the tool's definition is what
// every model reads (AGX-4's budget), the refusal only what a runaway
// query meets.
func checkQuery(q string) error {
	if len(q) <= catalog.MaxQueryBytes {
		return nil
	}
	return fault.Errorf(fault.CodeInvalidArgument, "query is %d bytes; search_actions reads at most %d bytes (4 KiB, about 1,300 Chinese characters)", len(q), catalog.MaxQueryBytes).
		Then("Search with a few words of the request, such as \"send group message\" or 发送群消息; nothing was run.")
}

type searchArgs struct {
	Query string `json:"query" jsonschema:"要找的文字（query），中英文皆可，如 发送群消息。"`
	Match string `json:"match,omitempty" jsonschema:"substring 子串（默认）或 keywords 分词加同义词、每词都须命中（match）。" schema:"enum=substring|keywords,default=substring"`
	filterArgs
}

// SearchActions finds catalog actions by case-insensitive substring or, on
// request, by ranked keywords with synonyms; a substring search that finds
// nothing suggests the closest actions by keywords instead.
func SearchActions(d *Deps) *pipeline.Tool {
	return pipeline.NewTool(pipeline.Spec{
		Name:        "search_actions",
		Description: "搜索动作（search actions）：默认在名称、别名、摘要、分类中找子串，按目录顺序；找不到时 suggestions 给出最相关的候选。keywords 模式按相关度排序，精确名称在前。",
		Summary: lang.Text{
			EN: "Searches the actions by name, alias, summary and category, in English or Chinese.",
			ZH: "按名称、别名、说明和分类搜索动作，中英文都可以。",
		},
		Mode: config.ModeDocs, Annotations: readOnlyDocs,
		Result: searchResultSchema,
	}, func(ctx context.Context, c *pipeline.Call, args *searchArgs) (*pipeline.Result, error) {
		if err := checkCategory(d, args.Category); err != nil {
			return nil, err
		}
		if err := checkQuery(args.Query); err != nil {
			return nil, err
		}
		var found, suggested []*catalog.Action
		if args.Match == "keywords" {
			found = d.Catalog.SearchKeywords(ctx, args.Query, args.filter())
		} else {
			found, suggested = d.Catalog.Find(ctx, args.Query, args.filter())
		}
		if err := ctx.Err(); err != nil {
			return nil, fault.Wrap(fault.CodeCancelled, err, "search_actions stopped before it finished")
		}
		return &pipeline.Result{Payload: args.page(found, suggested)}, nil
	})
}
