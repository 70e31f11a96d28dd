package content

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
)

// Account remembers which QQ account SnowLuma is logged in to, once
// SnowLuma has said so, so that the account's own messages are never
// taken for someone else's. Until then the filter treats nothing as the
// account's own: it fails closed.
type Account struct {
	id  atomic.Int64
	ask sync.Mutex // one question to SnowLuma at a time
}

// ID is the account, 0 while it is not known.
func (a *Account) ID() int64 { return a.id.Load() }

// Learn records the account from a get_login_info envelope; anything but
// a successful one with a positive user_id teaches nothing.
func (a *Account) Learn(envelope []byte) int64 {
	var env struct {
		Status string `json:"status"`
		Data   struct {
			UserID json.Number `json:"user_id"`
		} `json:"data"`
	}
	if json.Unmarshal(envelope, &env) != nil || env.Status != "ok" {
		return 0
	}
	id, err := env.Data.UserID.Int64()
	if err != nil || id <= 0 {
		return 0
	}
	a.id.Store(id)
	return id
}

// Resolve returns the account, asking SnowLuma with login (a
// get_login_info call returning its envelope) when it is not known yet.
// Concurrent callers ask once; a failed question is asked again by the
// next caller, and meanwhile the answer is 0.
func (a *Account) Resolve(ctx context.Context, login func(context.Context) ([]byte, error)) int64 {
	if id := a.ID(); id != 0 {
		return id
	}
	a.ask.Lock()
	defer a.ask.Unlock()
	if id := a.ID(); id != 0 {
		return id
	}
	env, err := login(ctx)
	if err != nil {
		return 0
	}
	return a.Learn(env)
}
