package fake_test

// Shared plumbing for the fake's own tests: one fake per test binary and a
// small HTTP helper that returns exactly what came over the wire.

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

const token = "fake-test-token"

var srv *fake.Fake

func TestMain(m *testing.M) {
	srv = fake.New(fake.Options{Token: token})
	code := m.Run()
	srv.Close()
	os.Exit(code)
}

// reply is one raw HTTP exchange result.
type reply struct {
	status int
	header http.Header
	body   string
}

// call sends one request. auth is the Authorization header ("" for none).
func call(t *testing.T, ctx context.Context, f *fake.Fake, method, path, contentType, auth, body string, header map[string]string) (reply, error) {
	t.Helper()
	base := strings.TrimSuffix(f.URL(), "/")
	req, err := http.NewRequestWithContext(ctx, method, base+path, bytes.NewBufferString(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return reply{status: resp.StatusCode, header: resp.Header, body: string(b)}, nil
}

// post sends an authorised JSON POST to the root path.
func post(t *testing.T, body string, header map[string]string) reply {
	t.Helper()
	r, err := call(t, context.Background(), srv, http.MethodPost, "/", "application/json", "Bearer "+token, body, header)
	require.NoError(t, err)
	return r
}
