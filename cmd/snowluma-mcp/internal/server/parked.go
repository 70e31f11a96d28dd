package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/internal/members"
)

// The SDK reads a tool call's params twice before any middleware runs: once
// for their _meta and once into CallToolParamsRaw, each time checking the
// nesting, copying the params into a fresh buffer and parsing them whole.
// It never looks inside the arguments, which it carries as raw JSON to the
// handler, but for a call of 1.5 MB those two reads were a third of the
// time the call took (issue 49: 100,000 unknown keys). So the Wire parks
// large arguments beside the SDK: it hands the SDK the params with a short
// reference in their place, and the outermost middleware but recovery
// (parkedArguments) puts them back before any layer below reads them. The
// pipeline and every middleware see the call as it was sent.

// parkMin is the smallest arguments parked. Below it the SDK's two reads
// cost less than a tenth of a millisecond, and a call of ordinary size
// goes to the SDK as sent.
const parkMin = 16 << 10

// argumentBook holds the arguments parked for the calls in flight. The
// reference carries a nonce drawn at start, so no argument a client writes
// can be mistaken for one. An entry leaves the book when the middleware
// takes it back or, for a call the SDK answers itself before any
// middleware runs (a _meta it refuses), when the answer goes out: the SDK
// answers every call it reads (jsonrpc2's processResult), even a cancelled
// one.
type argumentBook struct {
	prefix string // `{"snowluma-mcp/parked":"<nonce>-`

	mu    sync.Mutex
	next  int
	byRef map[string]json.RawMessage
	byID  map[callKey]string
}

// callKey is a call in flight: the connection it came on and its id's raw
// value (two sessions may use the same ids).
type callKey struct {
	conn any
	id   any
}

func newArgumentBook() *argumentBook {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce) // never fails (crypto/rand)
	return &argumentBook{
		prefix: `{"snowluma-mcp/parked":"` + hex.EncodeToString(nonce) + `-`,
		byRef:  map[string]json.RawMessage{},
		byID:   map[callKey]string{},
	}
}

// park gives a tools/call read from conn whose params hold one "arguments"
// member, an object of at least parkMin bytes, params with a reference in
// its place, and keeps the arguments. Any other request is left as it is,
// as is a call whose id is that of a call still in flight on conn (the
// answer to the first would drop the second's arguments). The transport
// has checked that the params are valid JSON (stdio's admission).
func (b *argumentBook) park(conn any, req *jsonrpc.Request) {
	if b == nil || req.Method != "tools/call" || !req.ID.IsValid() || len(req.Params) < parkMin {
		return
	}
	var args []byte
	n := 0
	members.Each(req.Params, func(k, v []byte) bool {
		if bytes.EqualFold(k, []byte("arguments")) {
			n++
			if string(k) == "arguments" {
				args = v
			}
		}
		return true
	})
	if n != 1 || len(args) < parkMin || args[0] != '{' {
		return // none, or a key the SDK might read another way
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	call := callKey{conn, req.ID.Raw()}
	if _, open := b.byID[call]; open {
		return
	}
	ref := b.prefix + strconv.Itoa(b.next) + `"}`
	b.next++
	b.byRef[ref] = args
	b.byID[call] = ref
	start := members.Offset(req.Params, args)
	params := make([]byte, 0, len(req.Params)-len(args)+len(ref))
	params = append(append(append(params, req.Params[:start]...), ref...), req.Params[start+len(args):]...)
	req.Params = params
}

// take returns the arguments a reference stands for, and forgets them;
// any other arguments are returned as they are.
func (b *argumentBook) take(args json.RawMessage) json.RawMessage {
	if len(args) > len(b.prefix)+24 || !bytes.HasPrefix(args, []byte(b.prefix)) {
		return args
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	parked, ok := b.byRef[string(args)]
	if !ok {
		return args
	}
	delete(b.byRef, string(args))
	return parked
}

// settle forgets what the call with id on conn parked, now that its
// answer is going out.
func (b *argumentBook) settle(conn any, id jsonrpc.ID) {
	if b == nil || !id.IsValid() {
		return
	}
	call := callKey{conn, id.Raw()}
	b.mu.Lock()
	defer b.mu.Unlock()
	if ref, ok := b.byID[call]; ok {
		delete(b.byID, call)
		delete(b.byRef, ref)
	}
}

// parkedArguments puts back the arguments the Wire parked (see above), so
// that every layer below it and the SDK's tool handler read the call's
// arguments as sent. Nil without a book: nothing is parked then.
func parkedArguments(b *argumentBook) mcp.Middleware {
	if b == nil {
		return nil
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
				call.Params.Arguments = b.take(call.Params.Arguments)
			}
			return next(ctx, method, req)
		}
	}
}
