package server

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
)

// Encodings lets a result encoded once skip the SDK's encoding on every
// answer. The SDK encodes each result with encoding/json, which checks and
// compacts whatever a MarshalJSON method returns byte by byte: for the
// 21 KB tools/list that was half of the server's time per request, spent
// re-reading bytes that never change. So a cached result marshals to a short
// reference instead, and the stdio transport, through Expand, writes the
// bytes it stands for in its place. The reference carries a nonce drawn at
// start, so no other result can be mistaken for one.
//
// Without Encodings (a server on any other transport) cached results
// marshal to their full bytes.
type Encodings struct {
	prefix string // `{"snowluma-mcp/encoded":"<nonce>-`

	mu    sync.RWMutex
	byRef map[string]json.RawMessage
}

// NewEncodings returns an empty set of encodings with a fresh nonce.
func NewEncodings() *Encodings {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce) // never fails (crypto/rand)
	return &Encodings{
		prefix: `{"snowluma-mcp/encoded":"` + hex.EncodeToString(nonce) + `-`,
		byRef:  map[string]json.RawMessage{},
	}
}

// ref registers raw and returns the reference that stands for it.
func (e *Encodings) ref(raw json.RawMessage) json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	r := e.prefix + strconv.Itoa(len(e.byRef)) + `"}`
	e.byRef[r] = raw
	return json.RawMessage(r)
}

// Expand is the stdio transport's Results hook: it returns the bytes a
// reference stands for, and any other result as it is.
func (e *Encodings) Expand(result json.RawMessage) json.RawMessage {
	if len(result) > len(e.prefix)+24 || !bytes.HasPrefix(result, []byte(e.prefix)) {
		return result
	}
	e.mu.RLock()
	raw, ok := e.byRef[string(result)]
	e.mu.RUnlock()
	if !ok {
		return result
	}
	return raw
}
