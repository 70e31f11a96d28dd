package fake_test

// Plumbing for the stream tests: one raw stream exchange with everything
// the framing rules talk about (status, headers, transfer encoding, the
// exact body) and the body split into frames the way a client must split
// it.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// streamReply is one stream exchange as it came over the wire.
type streamReply struct {
	status           int
	header           http.Header
	transferEncoding []string
	contentLength    int64
	body             string
	readErr          error // a body cut short
}

// frames splits the body on the delimiter and drops empty pieces.
func (r streamReply) frames() []string {
	var out []string
	for _, p := range strings.Split(r.body, fake.Delimiter) {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// postStream sends an authorised JSON POST and reads the whole body.
func postStream(t *testing.T, ctx context.Context, body string, header map[string]string) streamReply {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL(), strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, readErr := io.ReadAll(resp.Body)
	return streamReply{status: resp.StatusCode, header: resp.Header, transferEncoding: resp.TransferEncoding,
		contentLength: resp.ContentLength, body: string(b), readErr: readErr}
}

// streamCall posts action with params (a JSON object) and requires a
// complete, well-framed stream response.
func streamCall(t *testing.T, action, paramsJSON string) streamReply {
	t.Helper()
	r := postStream(t, context.Background(), `{"action":"`+action+`","params":`+paramsJSON+`}`, nil)
	require.NoError(t, r.readErr)
	assertStreamFraming(t, r)
	return r
}

// assertStreamFraming checks SnowLuma's HTTP stream framing.
func assertStreamFraming(t *testing.T, r streamReply) {
	t.Helper()
	assert.Equal(t, http.StatusOK, r.status, "stream actions always answer 200")
	assert.Empty(t, r.header.Values("Content-Type"), "stream responses carry no Content-Type")
	assert.Equal(t, []string{"chunked"}, r.transferEncoding)
	assert.Equal(t, int64(-1), r.contentLength, "no Content-Length")
	assert.True(t, strings.HasSuffix(r.body, fake.Delimiter), "the last frame is followed by the delimiter too")
	for _, f := range r.frames() {
		var env map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(f), &env), "frame %q", f)
		assert.Equal(t, `"stream-action"`, string(env["stream"]), "frame %q", f)
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, []byte(f)))
		assert.Equal(t, compact.String(), f, "frames are compact like JSON.stringify")
	}
}

// packet decodes the data member of a frame.
func packet(t *testing.T, frame string, v any) {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(frame), &env))
	require.NoError(t, json.Unmarshal(env.Data, v), "data of %q", frame)
}

// failedTerminal is the exact failed terminal frame for a reason.
func failedTerminal(retcode, reason string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // JSON.stringify leaves <, > and & alone
	_ = enc.Encode(reason)
	q := strings.TrimSuffix(b.String(), "\n")
	return `{"status":"failed","retcode":` + retcode + `,"data":{"type":"error","data_type":"error"},"message":` +
		string(q) + `,"wording":` + string(q) + `,"stream":"stream-action"}`
}

// okFrame is the exact ok frame around a packet.
func okFrame(packet string) string {
	return `{"status":"ok","retcode":0,"data":` + packet + `,"message":"","wording":"","stream":"stream-action"}`
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// jsonString quotes s for building params.
func jsonString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
