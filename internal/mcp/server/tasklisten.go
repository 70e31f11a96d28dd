package server

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/task"
)

// taskWatch serves the tasks extension's status notifications: a
// subscriptions/listen whose filter names taskIds gets notifications/tasks
// for those tasks, each carrying the task's whole state as tasks/get would
// return it.
//
// A listen hears each task's state once, right after its acknowledgement,
// and then every change of status. The first message matters: a task may
// end between the tools/call that started it and the listen, and without it
// such a listen would wait for a change that already happened. Each
// notification reads the task afresh from the store while the listen's send
// lock is held, so concurrent changes reach a listen in the order they were
// stored, and a state already sent to it is not sent again.
//
// The SDK neither knows taskIds nor can send notifications/tasks, so the
// field comes in through the Wire (as _meta[listenTaskIDsKey]) and the
// acknowledgement and notifications go out through it. The SDK's listen
// returns at once when nothing it knows was asked for; the middleware then
// holds the listen open itself until the client cancels it or the session
// ends.
type taskWatch struct {
	store *task.Store
	wire  *Wire

	mu      sync.Mutex
	listens map[*taskListen]bool
}

// taskListen is one listen that asked for task notifications.
type taskListen struct {
	listener
	ids []string // the tasks it is told about: those asked for that exist
	// sent is what each task's last notification said (status and
	// update time); guarded by sending.
	sent map[string]string
}

// taskListenKey marks the context of a listen that asked for tasks.
type taskListenKey struct{}

func newTaskWatch(runner *task.Runner, w *Wire) *taskWatch {
	tw := &taskWatch{store: runner.Store(), wire: w, listens: map[*taskListen]bool{}}
	// Off the task's own goroutine: a client that stops reading must not
	// hold up a task recording its end.
	runner.OnStatus(func(rec task.Record) { go tw.changed(rec.ID) })
	return tw
}

// receiving takes a listen's taskIds out of its _meta, checks them, and
// keeps the listen open while it has tasks to report on.
func (tw *taskWatch) receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.SubscriptionsListenParams)
		if method != "subscriptions/listen" || !ok || p == nil {
			return next(ctx, method, req)
		}
		raw, asked := p.Meta[listenTaskIDsKey]
		delete(p.Meta, listenTaskIDsKey)
		if !asked {
			return next(ctx, method, req)
		}
		if !metaDeclaresTasks(p.Meta) {
			return nil, errNeedsTasks
		}
		ids, err := taskIDsOf(raw)
		if err != nil {
			return nil, err
		}
		l := &taskListen{ids: tw.existing(ids), sent: map[string]string{}}
		defer func() {
			// Runs before the SDK writes the listen's answer.
			l.end()
			tw.mu.Lock()
			delete(tw.listens, l)
			tw.mu.Unlock()
		}()
		res, err := next(context.WithValue(ctx, taskListenKey{}, l), method, req)
		if err == nil && len(l.ids) > 0 {
			<-ctx.Done()
		}
		return res, err
	}
}

// taskIDsOf reads taskIds as the client sent them.
func taskIDsOf(raw any) ([]string, error) {
	var ids []string
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &ids)
	}
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "notifications.taskIds must be an array of task id strings"}
	}
	return ids, nil
}

// existing is ids without duplicates and without the ids of tasks this
// server does not have, which the acknowledgement therefore leaves out.
func (tw *taskWatch) existing(ids []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, id := range ids {
		if _, err := tw.store.Get(id); err == nil && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// sending replaces the SDK's acknowledgement of a listen that asked for
// tasks with one that also echoes the taskIds it honours, then makes the
// listen live and tells it each task's state.
func (tw *taskWatch) sending(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		l, ok := ctx.Value(taskListenKey{}).(*taskListen)
		p, isAck := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams)
		if method != "notifications/subscriptions/acknowledged" || !ok || !isAck || p == nil {
			return next(ctx, method, req)
		}
		ack, err := withTaskIDs(p, l.ids)
		if err != nil {
			return nil, err
		}
		l.sending.Lock()
		defer l.sending.Unlock()
		l.id = p.Meta[mcp.MetaKeySubscriptionID]
		if err := tw.wire.notify(ctx, method, ack); err != nil {
			return nil, err
		}
		tw.mu.Lock()
		tw.listens[l] = true
		tw.mu.Unlock()
		for _, id := range l.ids {
			tw.tell(l, id)
		}
		return nil, nil
	}
}

// withTaskIDs is the SDK's acknowledgement with taskIds added to the
// filter it honours.
func withTaskIDs(p *mcp.SubscriptionsAcknowledgedParams, ids []string) (map[string]any, error) {
	b, err := json.Marshal(p.Notifications)
	if err != nil {
		return nil, err
	}
	var filter map[string]any
	if err := json.Unmarshal(b, &filter); err != nil {
		return nil, err
	}
	filter["taskIds"] = ids
	return map[string]any{"_meta": p.Meta, "notifications": filter}, nil
}

// changed tells every live listen of task id about its state.
func (tw *taskWatch) changed(id string) {
	tw.mu.Lock()
	var to []*taskListen
	for l := range tw.listens {
		if slices.Contains(l.ids, id) {
			to = append(to, l)
		}
	}
	tw.mu.Unlock()
	for _, l := range to {
		l.sending.Lock()
		tw.tell(l, id)
		l.sending.Unlock()
	}
}

// tell sends l task id's current state unless l has had it already;
// l.sending is held. A task whose stored result cannot be read is not
// announced as completed: tasks/get reports that error when asked.
func (tw *taskWatch) tell(l *taskListen, id string) {
	if l.closed {
		return
	}
	rec, err := tw.store.Get(id)
	if err != nil {
		return
	}
	mark := string(rec.Status) + " " + stamp(rec.UpdatedAt)
	if l.sent[id] == mark {
		return
	}
	st, err := detailed(tw.store, rec)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	err = tw.wire.notify(ctx, "notifications/tasks", taskNotice{Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.id}, Task: st.Task})
	if err == nil {
		l.sent[id] = mark
	}
}

// taskNotice is notifications/tasks' params: the task's state exactly as
// tasks/get gives it, without tasks/get's resultType.
type taskNotice struct {
	Meta mcp.Meta
	Task taskFields
}

func (n taskNotice) MarshalJSON() ([]byte, error) { return flat(n.Meta, "", n.Task) }
