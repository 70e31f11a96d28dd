package stdio

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustAdmit(t *testing.T, line string) jsonrpc.Message {
	t.Helper()
	msg, refused := admit([]byte(line))
	require.Nil(t, refused, "%s", line)
	require.NotNil(t, msg)
	return msg
}

func TestLedgerKeepsTheAnswersOwed(t *testing.T) {
	t.Parallel()
	onlyCalls := func(method string) bool { return method == "tools/call" }
	tests := []struct {
		name     string
		owes     func(string) bool
		lines    []string
		answered []any
		want     map[any]bool
	}{
		{"owes an answer for every call without a hook", nil,
			[]string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":"a","method":"subscriptions/listen"}`},
			nil, map[any]bool{int64(1): true, "a": true}},
		{"owes nothing for methods the hook declines", onlyCalls,
			[]string{`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen"}`},
			nil, map[any]bool{int64(1): true}},
		{"owes nothing for notifications", nil,
			[]string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`}, nil, map[any]bool{}},
		{"owes nothing for the peer's responses", nil,
			[]string{`{"jsonrpc":"2.0","id":5,"result":{}}`}, nil, map[any]bool{}},
		{"forgets a call once answered", nil,
			[]string{`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/call"}`},
			[]any{int64(1)}, map[any]bool{int64(2): true}},
		{"forgets a cancelled call, by number or by string", nil,
			[]string{
				`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`,
				`{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"x"}}`,
				`{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"x"}}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"t"}}`,
			}, nil, map[any]bool{"s": true}},
		{"ignores a cancellation it cannot read", nil,
			[]string{
				`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"7"}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled"}`,
			}, nil, map[any]bool{int64(7): true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newLedger(tt.owes)
			for _, line := range tt.lines {
				l.read(mustAdmit(t, line))
			}
			for _, raw := range tt.answered {
				id, err := jsonrpc.MakeID(float64(raw.(int64)))
				require.NoError(t, err)
				l.settle(id)
			}
			assert.Equal(t, tt.want, l.owedIDs())
			assert.Equal(t, len(tt.want), l.outstanding())
		})
	}
}

// owedIDs are the raw ids of the calls whose answers EOF waits for.
func (l *ledger) owedIDs() map[any]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[any]bool{}
	for id, e := range l.open {
		if e.owed && !e.cancelled {
			out[id] = true
		}
	}
	return out
}

func TestLedgerDropsTheAnswersOfCancelledCalls(t *testing.T) {
	t.Parallel()
	id := func(v any) jsonrpc.ID {
		if n, ok := v.(int); ok {
			v = float64(n)
		}
		i, err := jsonrpc.MakeID(v)
		require.NoError(t, err)
		return i
	}
	tests := []struct {
		name     string
		lines    []string
		answer   any
		unwanted bool
	}{
		{"answers a call nobody cancelled", []string{`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`}, 7, false},
		{"drops the answer to a cancelled call", []string{
			`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`}, 7, true},
		{"drops it by string id too", []string{
			`{"jsonrpc":"2.0","id":"s","method":"tools/call"}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s","reason":"user"}}`}, "s", true},
		{"drops the answer to a cancelled call that owed none", []string{
			`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen"}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"l"}}`}, "l", true},
		{"answers a call whose cancellation named another", []string{
			`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}`}, 7, false},
		{"answers a call whose cancellation named the id as a string", []string{
			`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7"}}`}, 7, false},
		{"answers a newer call reusing a cancelled call's id", []string{
			`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`}, 7, false},
		{"a cancellation after the answer is no concern", []string{
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`}, 7, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newLedger(func(m string) bool { return m != "subscriptions/listen" })
			for _, line := range tt.lines {
				l.read(mustAdmit(t, line))
			}
			assert.Equal(t, tt.unwanted, l.unwanted(id(tt.answer)))
			l.settle(id(tt.answer))
			assert.False(t, l.unwanted(id(tt.answer)), "the call is forgotten once answered or dropped")
			assert.Zero(t, l.outstanding(), "nothing is owed after the answer")
			assert.Empty(t, l.open)
		})
	}
}

func TestLedgerWaitEndsWhenNothingIsOwed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(l *ledger) (context.Context, chan struct{})
	}{
		{"returns at once with nothing owed", func(l *ledger) (context.Context, chan struct{}) {
			return context.Background(), make(chan struct{})
		}},
		{"returns once the last answer is written", func(l *ledger) (context.Context, chan struct{}) {
			l.read(mustAdmit(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
			id, _ := jsonrpc.MakeID(float64(1))
			go l.settle(id)
			return context.Background(), make(chan struct{})
		}},
		{"returns when the context ends", func(l *ledger) (context.Context, chan struct{}) {
			l.read(mustAdmit(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, make(chan struct{})
		}},
		{"returns when the connection closes", func(l *ledger) (context.Context, chan struct{}) {
			l.read(mustAdmit(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
			closed := make(chan struct{})
			close(closed)
			return context.Background(), closed
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newLedger(nil)
			ctx, closed := tt.setup(l)
			// The bound is a safety net against a hung test, never the
			// reason wait returns: each case ends it another way.
			l.wait(ctx, closed, time.Hour)
		})
	}
}
