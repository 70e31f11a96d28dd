package task

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Scope is the configuration a task directory belongs to. Tasks started
// against one SnowLuma account must not be shown to a server configured
// for another, so the directory is bound to a digest of all three.
type Scope struct {
	Mode     string
	Endpoint string
	Token    string
}

// ErrScope is the refusal of a directory bound to another configuration.
var ErrScope = errors.New("task directory belongs to another configuration")

// scopeFile is dir/scope.json. It stores a salted, deliberately slow
// digest rather than the values, so that the token cannot be read back
// and a short one cannot be cheaply guessed from the file.
type scopeFile struct {
	Version    int    `json:"v"`
	KDF        string `json:"kdf"`
	Iterations int    `json:"iterations"`
	Salt       string `json:"salt"`
	Digest     string `json:"digest"`
}

const (
	scopeName       = "scope.json"
	scopeKDF        = "pbkdf2-sha256"
	scopeIterations = 60_000
)

// digest derives the stored digest of s with endpoint spelled as given.
func (s Scope) digest(endpoint string, salt []byte, iterations int) ([]byte, error) {
	secret := "snowluma-mcp task scope\x00" + s.Mode + "\x00" + endpoint + "\x00" + s.Token
	return pbkdf2.Key(sha256.New, secret, salt, iterations, 32)
}

// requested is the endpoint as the OneBot client actually requests it, so
// that spellings of one endpoint bind to one directory: an empty path is
// requested as "/", scheme and host are case-insensitive, a default port
// is no port, and a fragment is never sent. Anything else (a path, a
// query) reaches SnowLuma as written and stays as written.
func requested(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return endpoint
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	if port := u.Port(); (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		u.Host = strings.TrimSuffix(u.Host, ":"+port)
	}
	if u.Path == "" && u.RawPath == "" {
		u.Path = "/"
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// spellings are the endpoint strings whose digest admits s: first the
// requested form, which new directories are bound to; then the forms a
// directory bound before the endpoint was normalised may hold (the digest
// of the configured string as it was typed, with or without the root's
// trailing slash), so no earlier task history is locked out.
func (s Scope) spellings() []string {
	norm := requested(s.Endpoint)
	out := []string{norm}
	for _, e := range []string{s.Endpoint, strings.TrimSuffix(s.Endpoint, "/"), strings.TrimSuffix(norm, "/"), s.Endpoint + "/"} {
		if e != "" && !slices.Contains(out, e) && requested(e) == norm {
			out = append(out, e)
		}
	}
	return out
}

// bind checks dir's scope against s. A directory whose store was never
// made (no tasks folder yet) has no scope to check: place writes it, and
// without place (check, which changes nothing) it passes. One whose store
// was made must hold its scope, whoever reads it: the server and check
// refuse a missing one alike.
func bind(dir string, s Scope, place bool) error {
	// The tasks folder is looked at before the scope: a server makes
	// the scope first, so one racing this read is never taken for a
	// store that lost its scope.
	_, statErr := os.Stat(filepath.Join(dir, "tasks"))
	fresh := errors.Is(statErr, os.ErrNotExist)
	path := filepath.Join(dir, scopeName)
	data, err := readPrivate(path, maxMeta)
	if errors.Is(err, os.ErrNotExist) {
		if !fresh {
			return fmt.Errorf("%w: %s is missing while tasks exist; restore it, or choose a new SNOWLUMA_MCP_TASK_DIR", ErrCorrupt, path)
		}
		if !place {
			return nil
		}
		placed, err := writeScope(dir, s)
		if err != nil || placed {
			return err
		}
		// Another server starting on the new directory bound it first:
		// this one is held to that binding like any later start.
		return bind(dir, s, false)
	}
	if err != nil {
		return err
	}
	var f scopeFile
	if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 || f.KDF != scopeKDF || f.Iterations < 1 || f.Iterations > 10_000_000 {
		return fmt.Errorf("%w: %s is not a scope record this server wrote", ErrCorrupt, path)
	}
	salt, err1 := hex.DecodeString(f.Salt)
	want, err2 := hex.DecodeString(f.Digest)
	if err1 != nil || err2 != nil || len(salt) < 16 || len(want) != 32 {
		return fmt.Errorf("%w: %s is not a scope record this server wrote", ErrCorrupt, path)
	}
	for _, e := range s.spellings() {
		got, err := s.digest(e, salt, f.Iterations)
		if err != nil {
			return err
		}
		if hmac.Equal(got, want) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s holds the tasks of a different mode, endpoint or token. Choose a new SNOWLUMA_MCP_TASK_DIR for this configuration and keep the old directory for its history (or restore the configuration it was made with)", ErrScope, dir)
}

func writeScope(dir string, s Scope) (placed bool, err error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return false, err
	}
	sum, err := s.digest(requested(s.Endpoint), salt, scopeIterations)
	if err != nil {
		return false, err
	}
	data, err := json.Marshal(scopeFile{Version: 1, KDF: scopeKDF, Iterations: scopeIterations,
		Salt: hex.EncodeToString(salt), Digest: hex.EncodeToString(sum)})
	if err != nil {
		return false, err
	}
	return writeNew(dir, scopeName, data)
}

// Bound checks, reading only, that dir belongs to s as Open would (a
// directory not bound yet is bound by the first server that opens it; one
// holding tasks but no scope is refused in Open's words): for the reading
// of the settings, which must tell a directory the server would refuse
// before any store opens.
func Bound(dir string, s Scope) error { return bind(dir, s, false) }
