package stdio

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ledger keeps the calls read and not yet answered, for two reasons.
//
// At stdin EOF the SDK cancels calls in flight and drops their answers, so
// the transport holds EOF back until no answer is owed (or a bound passes),
// and a client that writes a request and closes stdin still gets its
// answer.
//
// After notifications/cancelled the SDK still answers the call (a tool
// result reading "context canceled"), though both cancellation specs say
// the receiver should not respond to a cancelled request, and a client that
// has forgotten the id reports the answer as an error. The ledger knows
// which calls were cancelled, so the transport drops their answers.
type ledger struct {
	// owes decides which calls owe an answer before EOF may end the
	// session. A call that only ends when the peer cancels it (a
	// subscription stream) must not, or EOF would always wait the full
	// bound. Nil means every call owes one.
	owes func(method string) bool

	mu   sync.Mutex
	open map[any]*entry // calls read and not yet answered, by raw id
	owed int            // open calls that owe an answer and were not cancelled
	idle chan struct{}  // signalled when owed drops to zero
}

// entry is one open call.
type entry struct {
	owed      bool // EOF waits for its answer
	cancelled bool // the peer cancelled it: its answer is not sent
}

func newLedger(owes func(method string) bool) *ledger {
	return &ledger{owes: owes, open: map[any]*entry{}, idle: make(chan struct{}, 1)}
}

// read records an admitted message: a call is entered, and a cancellation
// marks its call, since the peer no longer waits for it (and the SDK may
// never answer a call cancelled before it started).
func (l *ledger) read(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	switch {
	case req.ID.IsValid():
		e := &entry{owed: l.owes == nil || l.owes(req.Method)}
		l.mu.Lock()
		l.forgetLocked(req.ID.Raw()) // an id reused while open: the newer call counts
		l.open[req.ID.Raw()] = e
		if e.owed {
			l.owed++
		}
		l.mu.Unlock()
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) != nil {
			return
		}
		if id, err := jsonrpc.MakeID(p.RequestID); err == nil && id.IsValid() {
			l.cancel(id)
		}
	}
}

// cancel marks an open call cancelled; one already answered, or never
// seen, is no concern of ours.
func (l *ledger) cancel(id jsonrpc.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.open[id.Raw()]
	if e == nil || e.cancelled {
		return
	}
	e.cancelled = true
	if e.owed {
		l.releaseLocked()
	}
}

// unwanted reports whether the answer to id must not be sent because the
// peer cancelled the call, and then forgets the call.
func (l *ledger) unwanted(id jsonrpc.ID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.open[id.Raw()]; e != nil && e.cancelled {
		delete(l.open, id.Raw())
		return true
	}
	return false
}

// settle forgets the call with id, now answered.
func (l *ledger) settle(id jsonrpc.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forgetLocked(id.Raw())
}

func (l *ledger) forgetLocked(raw any) {
	e := l.open[raw]
	if e == nil {
		return
	}
	delete(l.open, raw)
	if e.owed && !e.cancelled {
		l.releaseLocked()
	}
}

// releaseLocked counts one owed answer off and signals when none is left.
func (l *ledger) releaseLocked() {
	l.owed--
	if l.owed == 0 {
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
	return l.owed
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
