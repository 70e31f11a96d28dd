package handlers

import (
	"context"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// ListActions lists catalog actions in compact form, filtered and paged.
func ListActions(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[filterArgs, actionList](pipeline.Spec{
		Name:        "list_actions",
		Description: "列出动作目录中的 OneBot 动作（list actions），可筛选；全部列出很长，有的宿主会截断，请用 limit/offset 分页。不连接 SnowLuma。",
		Sample:      pipeline.Sample{Good: `{"limit":2}`, Bad: `{"limit":0}`},
		Summary: lang.Text{
			EN: "Lists SnowLuma's OneBot actions, with filters and paging.",
			ZH: "列出 SnowLuma 的 OneBot 动作，可筛选和分页。",
		},
		MinMode: config.ModeDocs, Annotations: readOnlyDocs,
	}, func(ctx context.Context, c *pipeline.Call, args *filterArgs) (pipeline.Reply[actionList], error) {
		if err := checkCategory(d, args.Category); err != nil {
			return pipeline.Reply[actionList]{}, err
		}
		return pipeline.Reply[actionList]{Payload: args.page(d.Catalog.List(args.filter()))}, nil
	})
}

func checkCategory(d *Deps, category *string) error {
	if category != nil && !d.Catalog.HasCategory(*category) {
		return fault.Errorf(fault.CodeInvalidArgument, "unknown category %s; list_categories shows the categories", fault.Quote(*category))
	}
	return nil
}
