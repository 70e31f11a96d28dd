package onebot

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// paramsOfBody is params of a send_group_msg whose request body is n bytes.
func paramsOfBody(t *testing.T, n int) json.RawMessage {
	t.Helper()
	empty := BodySize("send_group_msg", json.RawMessage(`{"message":""}`))
	p := json.RawMessage(`{"message":"` + strings.Repeat("a", n-empty) + `"}`)
	require.Equal(t, n, BodySize("send_group_msg", p))
	return p
}

// TestABodyOverTheCapIsNeverSent: SnowLuma drops a request body over
// BodyCap unread; the client sends one at the cap, and refuses one byte
// more as limit, marked unsent, naming the size, the cap and what to do,
// with no request made. BodySize is the body newRequest writes.
func TestABodyOverTheCapIsNeverSent(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		got.Store(r.ContentLength)
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":null}`))
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	c := New(u, "", StreamTimeouts{})

	_, err = c.Do(context.Background(), "send_group_msg", paramsOfBody(t, BodyCap))
	require.NoError(t, err, "a body at the cap goes")
	assert.Equal(t, int64(BodyCap), got.Load(), "BodySize is the body sent")

	_, err = c.Do(context.Background(), "send_group_msg", paramsOfBody(t, BodyCap+1))
	require.Error(t, err)
	assert.Equal(t, fault.CodeLimit, fault.CodeOf(err))
	assert.True(t, fault.NothingSent(err))
	assert.Contains(t, err.Error(), strconv.Itoa(BodyCap+1))
	assert.Contains(t, err.Error(), strconv.Itoa(BodyCap))
	assert.Contains(t, fault.NextOf(err), "Split the message")
	assert.Contains(t, fault.NextOf(err), "upload_file_stream")
	assert.Equal(t, int32(1), requests.Load(), "the one over the cap made no request")
	assert.Equal(t, BodySize("get_status", nil), len(`{"action":"get_status","params":{}}`), "absent params travel as {}")
}
