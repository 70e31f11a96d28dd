package task

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestedEndpointIsWhatTheClientSends(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"an empty path is requested as the root", "http://127.0.0.1:3000", "http://127.0.0.1:3000/"},
		{"the root stays the root", "http://127.0.0.1:3000/", "http://127.0.0.1:3000/"},
		{"host and scheme are case-insensitive", "HTTP://Bot.Example:3000", "http://bot.example:3000/"},
		{"a default port is no port", "https://bot.example:443/", "https://bot.example/"},
		{"a fragment is never sent", "http://127.0.0.1:3000/#x", "http://127.0.0.1:3000/"},
		{"a path keeps its trailing slash", "http://127.0.0.1:3000/onebot/", "http://127.0.0.1:3000/onebot/"},
		{"a path without one stays so", "http://127.0.0.1:3000/onebot", "http://127.0.0.1:3000/onebot"},
		{"a query is sent as written", "http://127.0.0.1:3000/?a=1", "http://127.0.0.1:3000/?a=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, requested(tt.in))
		})
	}
}

// bindTwice makes a task directory with made and opens it again with then.
func bindTwice(t *testing.T, made, then string) error {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tasks")
	s, _, err := Open(dir, Scope{Mode: "write", Endpoint: made, Token: "tok"}, nil, nil)
	require.NoError(t, err)
	_, err = s.Create("invoke_action_background", "download_file_stream")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	again, _, err := Open(dir, Scope{Mode: "write", Endpoint: then, Token: "tok"}, nil, nil)
	if err == nil {
		require.NoError(t, again.Close())
	}
	return err
}

func TestTheDirectoryIsBoundToTheRequestedEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, made, then string
		ok               bool
	}{
		{"dropping the root's trailing slash", "http://127.0.0.1:3000/", "http://127.0.0.1:3000", true},
		{"adding the root's trailing slash", "http://127.0.0.1:3000", "http://127.0.0.1:3000/", true},
		{"another case of the host", "http://LOCALHOST:3000/", "http://localhost:3000", true},
		{"another port", "http://127.0.0.1:3000/", "http://127.0.0.1:3001/", false},
		{"another path", "http://127.0.0.1:3000/", "http://127.0.0.1:3000/onebot", false},
		{"a path's trailing slash is another request", "http://127.0.0.1:3000/onebot", "http://127.0.0.1:3000/onebot/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := bindTwice(t, tt.made, tt.then)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, ErrScope)
			}
		})
	}
}

// The scope files in testdata/scope-before-normalising were written by the
// code before the endpoint was normalised, which digested the endpoint as
// typed, for "http://127.0.0.1:3000" and "http://127.0.0.1:3000/", mode
// write and token "legacy-token".
func TestDirectoriesBoundBeforeNormalisingStillOpen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, endpoint string
		ok             bool
	}{
		{"slash.json", "http://127.0.0.1:3000/", true},
		{"slash.json", "http://127.0.0.1:3000", true},
		{"no-slash.json", "http://127.0.0.1:3000", true},
		{"no-slash.json", "http://127.0.0.1:3000/", true},
		{"no-slash.json", "http://127.0.0.1:3001", false},
	}
	for _, tt := range tests {
		t.Run(tt.file+" opened with "+tt.endpoint, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("testdata", "scope-before-normalising", tt.file))
			require.NoError(t, err)
			dir := filepath.Join(t.TempDir(), "tasks")
			// The store makes its directory private on every platform; the
			// binding an older release wrote then replaces its own.
			first, _, err := Open(dir, Scope{Mode: "write", Endpoint: "http://127.0.0.1:1", Token: "legacy-token"}, nil, nil)
			require.NoError(t, err)
			require.NoError(t, first.Close())
			require.NoError(t, os.WriteFile(filepath.Join(dir, scopeName), data, 0o600))
			s, _, err := Open(dir, Scope{Mode: "write", Endpoint: tt.endpoint, Token: "legacy-token"}, nil, nil)
			if !tt.ok {
				assert.ErrorIs(t, err, ErrScope)
				return
			}
			require.NoError(t, err)
			require.NoError(t, s.Close())
			after, err := os.ReadFile(filepath.Join(dir, scopeName))
			require.NoError(t, err)
			assert.Equal(t, data, after, "the binding is read, never rewritten")
		})
	}
}
