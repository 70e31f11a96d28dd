package handlers

import (
	"context"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// listTasksArgs page through the stored tasks.
type listTasksArgs struct {
	Cursor *string     `json:"cursor,omitempty" jsonschema:"上一页返回的 nextCursor（opaque cursor）；省略则从最新的任务开始。" schema:"minLength=1,maxLength=200"`
	Limit  *schema.Int `json:"limit,omitempty" jsonschema:"每页条数（page size, 1-100，默认 50）。" schema:"minimum=1,maximum=100"`
}

// taskEntry is one task's metadata; result bodies are never listed.
type taskEntry struct {
	TaskID        string      `json:"taskId"`
	Status        task.Status `json:"status" schema:"enum=working|completed|failed|cancelled"`
	StatusMessage string      `json:"statusMessage,omitempty"`
	Tool          string      `json:"tool"`
	Action        string      `json:"action"`
	CreatedAt     string      `json:"createdAt"`
	LastUpdatedAt string      `json:"lastUpdatedAt"`
}

type taskPage struct {
	Tasks      []taskEntry `json:"tasks"`
	NextCursor string      `json:"nextCursor,omitempty" jsonschema:"Pass as cursor for the next page; absent on the last page."`
}

// ListTasks lists stored background tasks, newest first, metadata only:
// tasks/list is gone from the protocol, and an agent that lost its task ids
// still needs a way back to its transfers.
func ListTasks(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[listTasksArgs, taskPage](pipeline.Spec{
		Name:        "list_tasks",
		Description: "列出后台任务（list background tasks）的元数据：状态、动作、时间，从新到旧，不含结果内容；用 tasks/get 取某个任务的结果。limit 1-100（默认 50），有下一页时返回 nextCursor。",
		Summary: lang.Text{
			EN: "Lists the background transfers.",
			ZH: "列出后台传输。",
		},
		MinMode: config.ModeWrite, Tasks: true,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: boolPtr(false)},
	}, func(ctx context.Context, c *pipeline.Call, args *listTasksArgs) (pipeline.Reply[taskPage], error) {
		if f := d.Config.Off(config.TaskDirVar); d.Tasks == nil && f != nil {
			return pipeline.Reply[taskPage]{}, offFailure(f)
		}
		if d.Tasks == nil {
			return pipeline.Reply[taskPage]{}, fault.Errorf(fault.CodeUnsupported, "background tasks need SNOWLUMA_MCP_TASK_DIR").Unsent()
		}
		limit := 50
		if args.Limit != nil {
			limit = int(*args.Limit)
		}
		var after *task.Record
		if args.Cursor != nil {
			r, ok := decodeCursor(d.Prompts, *args.Cursor)
			if !ok {
				return pipeline.Reply[taskPage]{}, fault.Errorf(fault.CodeInvalidArgument, "cursor %s is not a nextCursor this server process returned (cursors end when the server restarts); omit it to start from the newest task", fault.Quote(*args.Cursor)).Unsent()
			}
			after = r
		}
		page, more, err := d.Tasks.Page(after, limit)
		if err != nil {
			return pipeline.Reply[taskPage]{}, fault.Wrap(fault.CodeInternal, err, "the task directory could not be read; nothing was sent to SnowLuma. Fix the file the message names (restore it or move it aside) and list again").Unsent()
		}
		out := taskPage{Tasks: make([]taskEntry, 0, len(page))}
		for _, r := range page {
			out.Tasks = append(out.Tasks, taskEntry{TaskID: r.ID, Status: r.Status, StatusMessage: r.StatusMessage,
				Tool: r.Tool, Action: r.Action, CreatedAt: stamp(r.CreatedAt), LastUpdatedAt: stamp(r.UpdatedAt)})
		}
		if more && len(page) > 0 {
			out.NextCursor = encodeCursor(d.Prompts, page[len(page)-1])
		}
		return pipeline.Reply[taskPage]{Payload: out}, nil
	})
}

// stamp is the ISO 8601 form tasks use.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// cursorPurpose separates list_tasks cursors from everything else the
// prompt store seals.
const cursorPurpose = "list_tasks cursor"

// A cursor is the position of a page's last task: its creation time and
// id, sealed with the process key, so only a cursor this process issued is
// taken (a forged one could name any id or a time before every task, and
// read as an empty last page).
func encodeCursor(p *prompt.Store, r task.Record) string {
	return p.Seal(cursorPurpose, []byte(r.CreatedAt.UTC().Format(time.RFC3339Nano)+" "+r.ID))
}

func decodeCursor(p *prompt.Store, s string) (*task.Record, bool) {
	raw, ok := p.Open(cursorPurpose, s)
	if !ok {
		return nil, false
	}
	at, id, ok := strings.Cut(string(raw), " ")
	if !ok || id == "" {
		return nil, false
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return nil, false
	}
	return &task.Record{CreatedAt: t, ID: id}, true
}
