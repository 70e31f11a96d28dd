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
// request, by ranked keywords with synonyms; beside them go suggestions
// marked as nearest matches, and a hint where the request asks to send a
// message segment (search says when). A query beyond 4 KiB is refused and
// a cancelled call stops.
func SearchActions(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[searchArgs, searchReply](pipeline.Spec{
		Name:        "search_actions",
		Description: "搜索动作（search actions）：默认在名称、别名、摘要、分类中找子串，按动作目录顺序；suggestions 为近似候选，非精确匹配。keywords 模式按相关度排序，精确名称在前。",
		Summary: lang.Text{
			EN: "Searches the actions by name, alias, summary and category, in English or Chinese.",
			ZH: "按名称、别名、说明和分类搜索动作，中英文都可以。",
		},
		Mode: config.ModeDocs, Annotations: readOnlyDocs,
	}, func(ctx context.Context, c *pipeline.Call, args *searchArgs) (*pipeline.Result, error) {
		if err := checkCategory(d, args.Category); err != nil {
			return nil, err
		}
		if err := checkQuery(args.Query); err != nil {
			return nil, err
		}
		found, b := search(ctx, d.Catalog, args)
		if err := ctx.Err(); err != nil {
			return nil, fault.Wrap(fault.CodeCancelled, err, "search_actions stopped before it finished")
		}
		return &pipeline.Result{Payload: searchReply{actionList: args.page(found), beside: b}}, nil
	})
}

// search runs one search in the mode asked and says what goes beside its
// matches. Default mode: the substring hits in catalog order (the seed's
// rule), with ranked suggestions when there are none or when the best
// match is not the first hit (catalog.Find). Keywords mode: the hits of
// every word, ranked, with suggestions when there are none (and the
// default mode to try) or when the query asks to send a message segment.
// Every suggestions list is marked as nearest matches, in its own member
// and in the note, which names the best.
func search(ctx context.Context, cat *catalog.Catalog, args *searchArgs) ([]*catalog.Action, beside) {
	var b beside
	hint, hinted := cat.SegmentHint(ctx, args.Query)
	if hinted {
		b.Hint = hint.Text
	}
	var found, suggested []*catalog.Action
	var why string
	if args.Match == "keywords" {
		found = cat.SearchKeywords(ctx, args.Query, args.filter())
		if len(found) == 0 || hinted {
			suggested = cat.Suggest(ctx, args.Query, args.filter())
		}
		if len(found) == 0 {
			why = "No action matches every word of the query"
			if len(suggested) == 0 {
				b.Note = why + "; try the default mode (leave out match) or other words."
				return found, b
			}
			why += " (try the default mode: leave out match)"
		}
	} else {
		found, suggested = cat.Find(ctx, args.Query, args.filter())
		if len(found) == 0 {
			why = "No action's name, alias, summary or category holds the query"
		} else if len(suggested) > 0 {
			why = "The first of actions, " + found[0].Name + ", is not the best match by the query's words"
		}
	}
	if len(suggested) == 0 {
		return found, b
	}
	if why == "" {
		why = "What the query asks to send is a message segment (hint)"
	}
	b.Suggestions, b.SuggestionsMatch = entries(suggested), "nearest"
	b.Note = why + "; suggestions are the nearest matches, not exact, the best first: " + suggested[0].Name + ". Check it with get_action before calling it."
	return found, b
}
