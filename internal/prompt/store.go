// Package prompt keeps the continuation state of questions put to the user
// (input completion): each state is signed with a per-process key, bound to
// one tool and its exact arguments, expires, and is consumed once. It is a
// long-lived service built at start and shared by every call, so it lives
// below the stages that use it.
package prompt

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"
)

// Lifetime is how long a pending prompt may be answered.
const Lifetime = 10 * time.Minute

// MaxPending bounds the prompts waiting for an answer.
const MaxPending = 256

// Errors of continuation state. None of them executes anything.
var (
	ErrStateInvalid  = errors.New("the continuation state is not valid (tampered, or from another server run)")
	ErrStateExpired  = errors.New("the continuation state has expired")
	ErrStateUsed     = errors.New("the continuation state was already used or is unknown")
	ErrStateMismatch = errors.New("the continuation state belongs to another tool or other arguments")
	ErrTooMany       = errors.New("too many prompts are waiting for an answer")
)

// claims is what a continuation state carries, signed.
type claims struct {
	Nonce   string   `json:"n"`
	Tool    string   `json:"t"`
	Args    string   `json:"a"` // hex SHA-256 of the canonical arguments
	Missing []string `json:"m"`
	Expires int64    `json:"e"` // unix milliseconds
}

// Store signs continuation states and remembers which are still pending, so
// each can be consumed exactly once. The key is random per process: a
// restart invalidates every state it issued.
type Store struct {
	key []byte
	now func() time.Time

	mu      sync.Mutex
	pending map[string]time.Time // nonce → expiry
}

// NewStore returns a store with a fresh random key; now is the clock.
func NewStore(now func() time.Time) *Store {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &Store{key: key, now: now, pending: map[string]time.Time{}}
}

// Issue registers a prompt and returns its signed state.
func (s *Store) Issue(tool string, args json.RawMessage, missing []string) (string, error) {
	digest, err := argsDigest(args)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	c := claims{Nonce: hex.EncodeToString(nonce), Tool: tool, Args: digest, Missing: missing}
	now := s.now()
	expires := now.Add(Lifetime)
	c.Expires = expires.UnixMilli()
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, exp := range s.pending {
		if !now.Before(exp) {
			delete(s.pending, n)
		}
	}
	if len(s.pending) >= MaxPending {
		return "", ErrTooMany
	}
	s.pending[c.Nonce] = expires
	body, _ := json.Marshal(c)
	payload := base64.RawURLEncoding.EncodeToString(body)
	return payload + "." + base64.RawURLEncoding.EncodeToString(s.sign(payload)), nil
}

// Consume verifies a state against the tool and the arguments of the retry
// and removes it from the pending set, so a second use fails. It returns the
// fields the prompt asked for.
func (s *Store) Consume(state, tool string, args json.RawMessage) ([]string, error) {
	c, err := s.Verify(state)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	exp, ok := s.pending[c.Nonce]
	delete(s.pending, c.Nonce)
	s.mu.Unlock()
	if !ok {
		return nil, ErrStateUsed
	}
	if !s.now().Before(exp) {
		return nil, ErrStateExpired
	}
	digest, err := argsDigest(args)
	if err != nil || c.Tool != tool || digest != c.Args {
		return nil, ErrStateMismatch
	}
	return c.Missing, nil
}

// Verify checks a state's signature and shape without consuming it.
func (s *Store) Verify(state string) (*claims, error) {
	payload, sig, ok := strings.Cut(state, ".")
	if !ok {
		return nil, ErrStateInvalid
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.sign(payload)) {
		return nil, ErrStateInvalid
	}
	body, err := base64.RawURLEncoding.Strict().DecodeString(payload)
	if err != nil {
		return nil, ErrStateInvalid
	}
	var c claims
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil || c.Nonce == "" || len(c.Missing) == 0 {
		return nil, ErrStateInvalid
	}
	if !s.now().Before(time.UnixMilli(c.Expires)) {
		return nil, ErrStateExpired
	}
	return &c, nil
}

func (s *Store) sign(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// argsDigest hashes arguments in canonical form (sorted keys, compact, numbers
// as written), so a client that re-encodes the same arguments still matches.
func argsDigest(args json.RawMessage) (string, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "", err
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:]), nil
}
