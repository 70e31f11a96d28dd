package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/catalog/search"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// checkQuery refuses a query longer than search.MaxQueryBytes. It is
// refused here, not declared as maxLength: the tool's definition is what
// every model reads (AGX-4's budget), the refusal only what a runaway
// query meets.
func checkQuery(q string) error {
	if len(q) <= search.MaxQueryBytes {
		return nil
	}
	return fault.Errorf(fault.CodeInvalidArgument, "query is %d bytes; search_actions reads at most %d bytes (4 KiB, about 1,300 Chinese characters)", len(q), search.MaxQueryBytes).
		Then("Search with a few words of the request, such as \"send group message\" or 发送群消息; nothing was run.")
}

// firstOfPage says how the first action on the page asked for stands
// against the best match: a paged search's note speaks of the actions the
// reply holds, not of the full list's first (which another page holds).
func firstOfPage(args *searchArgs, found []*catalog.Action, best *catalog.Action) string {
	paged := args.Limit != nil || args.Offset != nil
	if !paged {
		return "The first of actions, " + found[0].Name + ", is not the best match by the query's words"
	}
	page := args.page(found).Actions
	switch {
	case len(page) == 0:
		return "This page holds none of the actions (offset is past the last)"
	case page[0].Name == best.Name:
		return "The first of actions on this page, " + page[0].Name + ", is the best match by the query's words"
	default:
		return "The first of actions on this page, " + page[0].Name + ", is not the best match by the query's words"
	}
}

type searchArgs struct {
	Query string `json:"query" jsonschema:"要找的文字，中英文皆可，如 发送群消息。"`
	Match string `json:"match,omitempty" jsonschema:"substring 子串（默认）或 keywords 分词加同义词、每词都须命中。" schema:"enum=substring|keywords,default=substring"`
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
		Sample:      pipeline.Sample{Good: `{"query":"msg"}`, Bad: `{"query":5}`},
		Summary: lang.Text{
			EN: "Searches the actions by name, alias, summary and category, in English or Chinese.",
			ZH: "按名称、别名、说明和分类搜索动作，中英文都可以。",
		},
		MinMode: config.ModeDocs, Annotations: readOnlyDocs,
	}, func(ctx context.Context, c *pipeline.Call, args *searchArgs) (pipeline.Reply[searchReply], error) {
		if err := checkCategory(d, args.Category); err != nil {
			return pipeline.Reply[searchReply]{}, err
		}
		if err := checkQuery(args.Query); err != nil {
			return pipeline.Reply[searchReply]{}, err
		}
		found, b := find(ctx, search.For(d.Catalog), args)
		if err := ctx.Err(); err != nil {
			return pipeline.Reply[searchReply]{}, fault.Wrap(fault.CodeCancelled, err, "search_actions stopped before it finished")
		}
		return pipeline.Reply[searchReply]{Payload: searchReply{actionList: args.page(found), beside: b}}, nil
	})
}

// find runs one search in the mode asked and says what goes beside its
// matches. Default mode: the substring hits in catalog order (the seed's
// rule), with ranked suggestions when there are none or when the best
// match is not the first hit (search.Index.Find). Keywords mode: the hits of
// every word, ranked, with suggestions when there are none (and the
// default mode to try) or when the query asks to send a message segment.
// Every suggestions list is marked as nearest matches, in its own member
// and in the note, which names the best.
func find(ctx context.Context, cat *search.Index, args *searchArgs) ([]*catalog.Action, beside) {
	var b beside
	hint, hinted := cat.SegmentHint(ctx, args.Query)
	if hinted {
		b.Hint = hint.Text
	}
	var found, suggested []*catalog.Action
	var why string
	if args.Match == "keywords" {
		found = cat.SearchKeywords(ctx, args.Query, args.filter())
		if len(found) == 0 || hinted || cat.OnlyChanges(args.Query, found) {
			suggested = cat.Suggest(ctx, args.Query, args.filter())
		}
		if len(found) == 0 {
			why = "No action matches every word of the query"
			if len(suggested) == 0 {
				b.Note = why + "; try the default mode (leave out match) or other words."
				return found, b
			}
			why += " (try the default mode: leave out match)"
		} else if !hinted && cat.OnlyChanges(args.Query, found) {
			why = "The query only reads, and every one of actions changes something"
		}
	} else {
		found, suggested = cat.Find(ctx, args.Query, args.filter())
		if len(found) == 0 {
			why = "No action's name, alias, summary or category holds the query"
		} else if len(suggested) > 0 {
			why = firstOfPage(args, found, suggested[0])
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
