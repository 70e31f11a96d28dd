package stdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer collects written lines safely.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Split(strings.TrimRight(s.b.String(), "\n"), "\n")
}

func TestReadAnswersBadLinesAndKeepsServing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		code float64
		id   any
	}{
		{"answers invalid JSON with a parse error", `{"jsonrpc":"2.0",`, -32700, nil},
		{"answers plain text with a parse error", `hello`, -32700, nil},
		{"refuses a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, nil},
		{"refuses a message without a method, keeping its id", `{"jsonrpc":"2.0","id":7}`, -32600, float64(7)},
		{"refuses a wrong jsonrpc version", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, -32600, "a"},
		{"refuses a null id instead of treating the call as a notification", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, -32600, nil},
		{"refuses a fractional id, echoing it", `{"jsonrpc":"2.0","id":9.5,"method":"tools/list"}`, -32600, 9.5},
		{"refuses an id beyond 2^53, echoing it", `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`, -32600, 9007199254740993.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := &syncBuffer{}
			in := tt.line + "\n\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
			conn, err := (&Transport{In: strings.NewReader(in), Out: out}).Connect(context.Background())
			require.NoError(t, err)
			msg, err := conn.Read(context.Background())
			require.NoError(t, err, "the session goes on after a bad line")
			req, ok := msg.(*jsonrpc.Request)
			require.True(t, ok)
			assert.Equal(t, "tools/list", req.Method)
			var reply struct {
				ID    any `json:"id"`
				Error struct {
					Code float64 `json:"code"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal([]byte(out.lines()[0]), &reply))
			assert.Equal(t, tt.code, reply.Error.Code)
			assert.Equal(t, tt.id, reply.ID)
		})
	}
}

func TestReadRefusesOverlongLines(t *testing.T) {
	t.Parallel()
	out := &syncBuffer{}
	in := `{"x":"` + strings.Repeat("a", MaxLine) + `"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	conn, _ := (&Transport{In: strings.NewReader(in), Out: out}).Connect(context.Background())
	msg, err := conn.Read(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "notifications/initialized", msg.(*jsonrpc.Request).Method)
	assert.Contains(t, out.lines()[0], `"code":-32600`)
}

func TestEOFWaitsForAnswersOwed(t *testing.T) {
	t.Parallel()
	out := &syncBuffer{}
	conn, _ := (&Transport{In: strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"), Out: out}).Connect(context.Background())
	msg, err := conn.Read(context.Background())
	require.NoError(t, err)
	eof := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		eof <- err
	}()
	select {
	case <-eof:
		t.Fatal("EOF was reported while an answer was still owed")
	case <-time.After(100 * time.Millisecond):
	}
	id := msg.(*jsonrpc.Request).ID
	require.NoError(t, conn.Write(context.Background(), &jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)}))
	assert.ErrorIs(t, <-eof, io.EOF)
}

func TestEOFWithNothingOwedEndsAtOnce(t *testing.T) {
	t.Parallel()
	conn, _ := (&Transport{In: strings.NewReader(""), Out: io.Discard}).Connect(context.Background())
	_, err := conn.Read(context.Background())
	assert.ErrorIs(t, err, io.EOF)
}

func TestWriteNeverSendsCodeZero(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		code float64
	}{
		{"gives a plain error the internal-error code", errors.New(`method "tools/list" is invalid during session initialization`), -32603},
		{"keeps a real JSON-RPC code", &jsonrpc.Error{Code: -32602, Message: "bad"}, -32602},
		{"replaces an explicit code 0", &jsonrpc.Error{Code: 0, Message: "zero"}, -32603},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := &syncBuffer{}
			conn, _ := (&Transport{In: strings.NewReader(""), Out: out}).Connect(context.Background())
			id, _ := jsonrpc.MakeID(float64(3))
			require.NoError(t, conn.Write(context.Background(), &jsonrpc.Response{ID: id, Error: tt.err}))
			var reply struct {
				Error struct {
					Code    float64 `json:"code"`
					Message string  `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.NewDecoder(bufio.NewReader(strings.NewReader(out.lines()[0]))).Decode(&reply))
			assert.Equal(t, tt.code, reply.Error.Code)
			assert.NotEmpty(t, reply.Error.Message)
		})
	}
}

func TestCloseUnblocksRead(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	conn, _ := (&Transport{In: pr, Out: io.Discard}).Connect(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		done <- err
	}()
	require.NoError(t, conn.Close())
	assert.ErrorIs(t, <-done, io.EOF)
}

func TestStopEndsTheSessionAtOnce(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	stop := make(chan struct{})
	conn, _ := (&Transport{In: pr, Out: io.Discard, Stop: stop}).Connect(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		done <- err
	}()
	close(stop)
	assert.ErrorIs(t, <-done, ErrStopped)
}

func TestStopIsAnOrderlyEnd(t *testing.T) {
	t.Parallel()
	assert.ErrorIs(t, ErrStopped, io.EOF, "the SDK logs any read error but EOF as a failed session")
}

func TestScreenAnswersInTheSDKsPlace(t *testing.T) {
	t.Parallel()
	refuseX := func(req *jsonrpc.Request) *jsonrpc.Error {
		if req.Method == "x" {
			return &jsonrpc.Error{Code: -32602, Message: "no x"}
		}
		return nil
	}
	tests := []struct {
		name    string
		line    string
		screen  func(*jsonrpc.Request) *jsonrpc.Error
		replies []string
	}{
		{"answers a refused call with its id and code", `{"jsonrpc":"2.0","id":"a","method":"x"}`, refuseX,
			[]string{`{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"no x"}}`}},
		{"drops a refused notification without a reply", `{"jsonrpc":"2.0","method":"x"}`, refuseX, nil},
		{"never answers with code 0", `{"jsonrpc":"2.0","id":3,"method":"x"}`,
			func(req *jsonrpc.Request) *jsonrpc.Error {
				if req.Method == "x" {
					return &jsonrpc.Error{Message: "zero"}
				}
				return nil
			},
			[]string{`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"zero"}}`}},
		{"passes everything through without a screen", `{"jsonrpc":"2.0","id":3,"method":"x"}`, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := &syncBuffer{}
			in := tt.line + "\n" + `{"jsonrpc":"2.0","id":9,"method":"y"}` + "\n"
			tr, err := (&Transport{In: strings.NewReader(in), Out: out, Screen: tt.screen}).Connect(context.Background())
			require.NoError(t, err)
			msg, err := tr.Read(context.Background())
			require.NoError(t, err)
			if tt.screen == nil {
				assert.Equal(t, "x", msg.(*jsonrpc.Request).Method)
				return
			}
			assert.Equal(t, "y", msg.(*jsonrpc.Request).Method, "the session goes on")
			if tt.replies == nil {
				assert.Empty(t, strings.TrimSpace(strings.Join(out.lines(), "")))
			} else {
				assert.Equal(t, tt.replies, out.lines())
			}
			c := tr.(*conn)
			assert.Equal(t, 1, c.ledger.outstanding(), "a call answered by the screen is not owed again")
		})
	}
}
