package content

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAccountLearn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		envelope string
		want     int64
	}{
		{"learns the account from get_login_info", `{"status":"ok","retcode":0,"data":{"user_id":10001,"nickname":"bot"}}`, 10001},
		{"learns nothing from a failure", `{"status":"failed","retcode":100,"data":{"user_id":10001}}`, 0},
		{"learns nothing from a missing id", `{"status":"ok","retcode":0,"data":null}`, 0},
		{"learns nothing from a negative id", `{"status":"ok","retcode":0,"data":{"user_id":-5}}`, 0},
		{"learns nothing from a fraction", `{"status":"ok","retcode":0,"data":{"user_id":1.5}}`, 0},
		{"learns nothing from what is not JSON", `<html>`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var a Account
			assert.Equal(t, tt.want, a.Learn([]byte(tt.envelope)))
			assert.Equal(t, tt.want, a.ID())
		})
	}
}

func TestAccountResolveAsksOnceAndAgainAfterAFailure(t *testing.T) {
	t.Parallel()
	var a Account
	var asked atomic.Int32
	failing := func(context.Context) ([]byte, error) { asked.Add(1); return nil, errors.New("down") }
	assert.Zero(t, a.Resolve(context.Background(), failing), "fails closed")
	login := func(context.Context) ([]byte, error) {
		asked.Add(1)
		return []byte(`{"status":"ok","retcode":0,"data":{"user_id":10001}}`), nil
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { assert.Equal(t, int64(10001), a.Resolve(context.Background(), login)) })
	}
	wg.Wait()
	assert.Equal(t, int32(2), asked.Load(), "one failed question, then one answered for all")
}
