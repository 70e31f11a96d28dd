package onebot

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// closedEndpoint is the address of a server that no longer listens, so a
// dial to it is refused.
func closedEndpoint(t *testing.T) *url.URL {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	srv.Close()
	return u
}

// hangupEndpoint reads each request and then drops the connection without
// any response, as SnowLuma does with a body over its cap.
func hangupEndpoint(t *testing.T) *url.URL {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic(http.ErrAbortHandler)
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return u
}

// TestTransportFailuresAreClassifiedAndMarked: a failed exchange is a
// transport failure on ordinary and stream calls alike (never a
// cancellation), and only a refused dial, where nothing reached SnowLuma,
// is marked as unsent.
func TestTransportFailuresAreClassifiedAndMarked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		endpoint   func(t *testing.T) *url.URL
		stream     bool
		wantUnsent bool
	}{
		{"an ordinary call to a refused port is unsent", closedEndpoint, false, true},
		{"an ordinary call dropped after sending is not unsent", hangupEndpoint, false, false},
		{"a stream call to a refused port is unsent", closedEndpoint, true, true},
		{"a stream call dropped after sending is not unsent", hangupEndpoint, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := tt.endpoint(t)
			c := New(u, "s3cret", StreamTimeouts{})
			var err error
			if tt.stream {
				_, err = c.With(nil).Stream(context.Background(), "upload_file_stream", json.RawMessage(`{"stream_id":"s1"}`))
			} else {
				_, err = c.Do(context.Background(), "get_status", nil)
			}
			require.Error(t, err)
			assert.Equal(t, fault.CodeTransport, fault.CodeOf(err), err.Error())
			assert.Equal(t, tt.wantUnsent, fault.NothingSent(err), err.Error())
			assert.NotContains(t, err.Error(), "cancel")
			assert.NotContains(t, err.Error(), u.Host, "the endpoint stays out of messages")
			assert.NotContains(t, err.Error(), "s3cret")
		})
	}
}
