package server

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The task side of the listen registry: the tasks extension's status
// notifications. A subscriptions/listen whose filter names taskIds gets
// notifications/tasks for those tasks, each carrying the task's whole
// state as tasks/get would return it.
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
// acknowledgement and notifications go out through it (listens.send).

// askTasks reads the taskIds the Wire carried into a listen's _meta (and
// removes the key, which is this process's own). A listen that names them
// must declare the tasks extension on the request itself.
func (r *listens) askTasks(l *listener, req mcp.Request) error {
	p, ok := req.GetParams().(*mcp.SubscriptionsListenParams)
	if !ok || p == nil {
		return nil
	}
	raw, asked := p.Meta[listenTaskIDsKey]
	delete(p.Meta, listenTaskIDsKey)
	if !asked || r.store == nil {
		return nil
	}
	if !metaDeclaresTasks(p.Meta) {
		return errNeedsTasks
	}
	ids, err := taskIDsOf(raw)
	if err != nil {
		return err
	}
	l.askedTasks, l.taskIDs, l.sent = true, r.existing(ids), map[string]string{}
	return nil
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
// server cannot tell about, which the acknowledgement therefore leaves out.
func (r *listens) existing(ids []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, id := range ids {
		if r.announces(id) && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// announces reports whether this server can tell a listen every status
// change of task id: a task it runs, or one that has ended (its state is
// final). Another server on the same task directory runs the rest, and
// only that server hears their changes, so a client polls tasks/get for
// them.
func (r *listens) announces(id string) bool {
	rec, err := r.store.Get(id)
	return err == nil && (rec.Status.Terminal() || r.store.Runs(rec))
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

// taskChanged tells every live listen of task id about its state.
func (r *listens) taskChanged(id string) {
	r.mu.Lock()
	var to []*listener
	for l := range r.live {
		if slices.Contains(l.taskIDs, id) {
			to = append(to, l)
		}
	}
	r.mu.Unlock()
	for _, l := range to {
		l.sending.Lock()
		r.tell(l, id)
		l.sending.Unlock()
	}
}

// tell sends l task id's current state unless l has had it already;
// l.sending is held. A task whose stored result cannot be read is not
// announced as completed: tasks/get reports that error when asked.
func (r *listens) tell(l *listener, id string) {
	if l.closed {
		return
	}
	rec, err := r.store.Get(id)
	if err != nil {
		return
	}
	mark := string(rec.Status) + " " + stamp(rec.UpdatedAt)
	if l.sent[id] == mark {
		return
	}
	st, err := detailed(r.store, rec)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	err = r.send(ctx, l.session, "notifications/tasks", taskNotice{Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.id}, Task: st.Task})
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
