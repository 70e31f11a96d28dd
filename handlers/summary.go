package handlers

// What each tool does, in one line for a person, in English and
// Simplified Chinese: the last column of the docs' tool tables, which
// cmd/docgen writes (the markers named "tools"; its modes and arguments
// come from the tool's own declaration). The model reads the tool's
// description instead. TestEveryToolHasASummary holds this list to All.

// Summary is one tool's line in both languages the docs are written in.
type Summary struct {
	En, Zh string
}

// Summaries returns each tool's line by its name.
func Summaries() map[string]Summary { return summaries }

var summaries = map[string]Summary{
	"list_actions": {"compact list of catalog actions",
		"目录中动作的简要列表"},
	"search_actions": {"case-insensitive search over names, aliases, summaries and categories, in catalog order; `keywords` splits on spaces, requires every term, knows common 中文/English synonyms (群/group, 禁言/mute/ban, 消息/message/msg …) and ranks exact names and aliases first",
		"在动作名、别名、摘要和分类中不区分大小写地搜索，结果保持目录顺序；`keywords` 按空格分词、要求每个词都命中、认识常见的中英文同义词（群/group、禁言/mute/ban、消息/message/msg …），并把名称和别名完全匹配的排在前面"},
	"get_action": {"one action's full contract: params, `inputSchema`, `returnsSchema`, examples",
		"一个动作的完整契约：参数、`inputSchema`、`returnsSchema`、示例"},
	"list_categories": {"categories with action counts",
		"各分类及其动作数"},
	"get_runtime_info": {"mode, catalog version, effective limits (with events on, the event limits and active event resources), variables it ignores; with `check_connection`, the connection check",
		"模式、目录版本、生效的限制（启用事件时，还有事件相关的限制和当前的事件资源）、被忽略的变量；以及带 `check_connection` 时的连通检查"},
	"preview_message": {"builds a message draft, never contacts SnowLuma: readable text, `can_send`, and the exact `invoke_action` arguments; hosts with MCP Apps show it in a panel",
		"构造一条消息草稿，从不连接 SnowLuma：可读的文字、`can_send`，以及准确的 `invoke_action` 参数；支持 MCP Apps 的宿主会在面板中显示它"},
	"query_action": {"runs a read-only, non-stream catalog action",
		"执行一个只读的、非流式的目录动作"},
	"query_action_with_input": {"`query_action`, but asks the user for missing required params",
		"与 `query_action` 相同，但缺少必填参数时会询问用户"},
	"invoke_action": {"runs any catalog action, stream actions included",
		"执行任意目录动作，包括流式动作"},
	"invoke_action_with_input": {"`invoke_action`, but asks the user for missing required params",
		"与 `invoke_action` 相同，但缺少必填参数时会询问用户"},
	"subscribe_events": {"buffers live QQ events for one account as a resource",
		"把一个账号的实时 QQ 事件缓存为一个资源"},
	"unsubscribe_events": {"releases an event resource; the last release closes the WebSocket",
		"释放一个事件资源；释放最后一个时关闭 WebSocket"},
	"invoke_action_background": {"starts a durable background transfer and answers with its task",
		"启动一个能跨重启保存的后台传输，立即返回它的任务"},
	"list_tasks": {"stored tasks, newest first, with `nextCursor`",
		"已保存的任务，从新到旧，带 `nextCursor`"},
}
