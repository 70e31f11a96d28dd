package tasks

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/task"
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
// notification reads the task afresh from the store while that listen's
// watch is locked, so concurrent changes reach a listen in the order they
// were stored, and a state already sent to it is not sent again.
//
// The SDK neither knows taskIds nor can send notifications/tasks, so the
// field comes in through the server's Wire (as _meta[ListenIDsKey]) and the
// acknowledgement and notifications go out through it, by the registry's
// one send path (Listen.Notify).

// ListenIDsKey is the _meta key under which the Wire hands a listen's
// notifications.taskIds to the listen registry. It is private to this
// process: the Wire sets or removes it on every listen, so what Admit finds
// there is always what the client put in taskIds.
const ListenIDsKey = "snowluma-mcp/listen-taskIds"

// Listens is the task side's state: which listens asked for which
// tasks, and what each was last told, under its own lock.
type Listens struct {
	store *task.Store

	mu      sync.Mutex
	listens map[Listen]*watch
}

// Listen is what the task side sees of a listen.
type Listen interface {
	SubscriptionID() any
	// Notify sends one notification for the listen unless it has ended.
	Notify(method string, params any) error
}

// watch is one listen's tasks: those it asked for that exist, whether
// its acknowledgement is out, and what each task's last notification said.
// mu orders its notifications: each reads the task afresh while holding
// it.
type watch struct {
	mu   sync.Mutex
	ids  []string
	live bool
	sent map[string]string
}

// NewListens tells listens about the tasks in store; Observe must
// hear of every status change.
func NewListens(store *task.Store) *Listens {
	return &Listens{store: store, listens: map[Listen]*watch{}}
}

// Observe is the runner's status observer. It tells listens off the
// task's own goroutine: a client that stops reading must not hold up a
// task recording its end.
func (t *Listens) Observe(rec task.Record) { go t.changed(rec.ID) }

// Admit reads the taskIds the Wire carried into a listen's _meta
// (the SDK's filter drops them: TestSDKListenFilterDropsTaskIDs) (and
// removes the key, which is this process's own). A listen that names them
// must declare the tasks extension on the request itself; hold reports
// that it did, and the listen stays open to hear about them.
func (t *Listens) Admit(l Listen, req mcp.Request) (hold bool, err error) {
	p, ok := req.GetParams().(*mcp.SubscriptionsListenParams)
	if !ok || p == nil {
		return false, nil
	}
	raw, asked := p.Meta[ListenIDsKey]
	delete(p.Meta, ListenIDsKey)
	if !asked || t == nil {
		return false, nil
	}
	if !generation.MetaDeclaresTasks(p.Meta) {
		return false, ErrNeedsTasks
	}
	ids, err := taskIDsOf(raw)
	if err != nil {
		return false, err
	}
	w := &watch{ids: t.existing(ids), sent: map[string]string{}}
	t.mu.Lock()
	t.listens[l] = w
	t.mu.Unlock()
	return len(w.ids) > 0, nil
}

// Acknowledgement is the acknowledgement a listen that asked for tasks
// gets instead of the SDK's: the SDK's with taskIds added; asked is false
// for any other listen.
func (t *Listens) Acknowledgement(l Listen, p *mcp.SubscriptionsAcknowledgedParams) (ack map[string]any, asked bool, err error) {
	w := t.watchOf(l)
	if w == nil {
		return nil, false, nil
	}
	ack, err = withTaskIDs(p, w.ids)
	return ack, true, err
}

// Acknowledged tells l, whose acknowledgement is out, each of its tasks'
// state, and from then on every change.
func (t *Listens) Acknowledged(l Listen) {
	w := t.watchOf(l)
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.live = true
	for _, id := range w.ids {
		t.tell(l, w, id)
	}
}

// Forget drops l, whose listen has ended or was never acknowledged.
func (t *Listens) Forget(l Listen) {
	if t == nil {
		return
	}
	t.mu.Lock()
	delete(t.listens, l)
	t.mu.Unlock()
}

func (t *Listens) watchOf(l Listen) *watch {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.listens[l]
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
func (t *Listens) existing(ids []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, id := range ids {
		if t.announces(id) && !seen[id] {
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
func (t *Listens) announces(id string) bool {
	rec, err := t.store.Get(id)
	return err == nil && (rec.Status.Terminal() || t.store.Runs(rec))
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
func (t *Listens) changed(id string) {
	t.mu.Lock()
	to := map[Listen]*watch{}
	for l, w := range t.listens {
		if slices.Contains(w.ids, id) {
			to[l] = w
		}
	}
	t.mu.Unlock()
	for l, w := range to {
		w.mu.Lock()
		if w.live {
			t.tell(l, w, id)
		}
		w.mu.Unlock()
	}
}

// tell sends l task id's current state unless l has had it already;
// w.mu is held. A task whose stored result cannot be read is not
// announced as completed: tasks/get reports that error when asked.
func (t *Listens) tell(l Listen, w *watch, id string) {
	rec, err := t.store.Get(id)
	if err != nil {
		return
	}
	mark := string(rec.Status) + " " + stamp(rec.UpdatedAt)
	if w.sent[id] == mark {
		return
	}
	st, err := detailed(t.store, rec)
	if err != nil {
		return
	}
	err = l.Notify("notifications/tasks", taskNotice{Meta: mcp.Meta{mcp.MetaKeySubscriptionID: l.SubscriptionID()}, Task: st.Task})
	if err == nil {
		w.sent[id] = mark
	}
}

// taskNotice is notifications/tasks' params: the task's state exactly as
// tasks/get gives it, without tasks/get's resultType.
type taskNotice struct {
	Meta mcp.Meta
	Task fields
}

func (n taskNotice) MarshalJSON() ([]byte, error) { return flat(n.Meta, "", n.Task) }
