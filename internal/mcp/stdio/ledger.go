package stdio

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ledger keeps the answers owed: calls read but not yet answered. At stdin
// EOF the SDK cancels calls in flight and drops their answers, so the
// transport holds EOF back until the ledger is empty (or a bound passes),
// and a client that writes a request and closes stdin still gets its answer.
type ledger struct {
	// owes decides which calls owe an answer before EOF may end the
	// session. A call that only ends when the peer cancels it (a
	// subscription stream) must not, or EOF would always wait the full
	// bound. Nil means every call owes one.
	owes func(method string) bool

	mu   sync.Mutex
	owed map[any]bool  // raw ids of calls owed an answer
	idle chan struct{} // signalled when owed becomes empty
}

func newLedger(owes func(method string) bool) *ledger {
	return &ledger{owes: owes, owed: map[any]bool{}, idle: make(chan struct{}, 1)}
}

// read records an admitted message: a call that owes an answer is entered,
// and a cancellation strikes its call out, since the peer no longer waits
// for it and the SDK may never answer a call cancelled before it started.
func (l *ledger) read(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	switch {
	case req.ID.IsValid():
		if l.owes == nil || l.owes(req.Method) {
			l.mu.Lock()
			l.owed[req.ID.Raw()] = true
			l.mu.Unlock()
		}
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) != nil {
			return
		}
		if id, err := jsonrpc.MakeID(p.RequestID); err == nil && id.IsValid() {
			l.settle(id)
		}
	}
}

// settle strikes out the call with id, answered or cancelled.
func (l *ledger) settle(id jsonrpc.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.owed, id.Raw())
	if len(l.owed) == 0 {
		select {
		case l.idle <- struct{}{}:
		default:
		}
	}
}

// outstanding is the number of answers still owed.
func (l *ledger) outstanding() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.owed)
}

// wait returns once nothing is owed, or when limit passes, ctx ends or
// closed closes, whichever comes first.
func (l *ledger) wait(ctx context.Context, closed <-chan struct{}, limit time.Duration) {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for l.outstanding() > 0 {
		select {
		case <-l.idle:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		case <-closed:
			return
		}
	}
}
