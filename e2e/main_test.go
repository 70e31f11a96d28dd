package e2e

// TestMain builds the real binary once and starts the one fake SnowLuma
// that every test shares; tests isolate themselves by trace ID and tag, so
// they can all run in parallel against it.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// Recognisable secrets: the token the fake accepts, a wrong one, and the
// token of a WS 服务端 node given one of its own (as SnowLuma's default
// nodes each have). None may ever appear in a result, on stdout or on
// stderr.
const (
	token      = "sl-e2e-SECRET-TOKEN-5f3a9c1d"
	wrongToken = "sl-e2e-WRONG-TOKEN-8b2e6c40"
	wsToken    = "sl-e2e-SECRET-WS-TOKEN-2d7e91b3"
)

var (
	binary string     // the built snowluma-mcp
	home   string     // HOME of every started process
	snow   *fake.Fake // the shared fake SnowLuma
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "snowluma-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: cannot find the module root:", err)
		return 1
	}
	if err := checkLauncher(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	binary = filepath.Join(dir, "snowluma-mcp"+exeSuffix)
	home = filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	// SNOWLUMA_E2E_TAGS builds a variant, such as -tags profile, which
	// writes a CPU profile of each started binary (see environ). The
	// fakemarker tag is always on: it lets the fake's marker param
	// (fake.Marker) through the params stage, which refuses every other
	// key SnowLuma does not read (catalog/fake_marker.go).
	tags := "fakemarker"
	if extra := os.Getenv("SNOWLUMA_E2E_TAGS"); extra != "" {
		tags += "," + extra
	}
	build := exec.Command("go", "build", "-tags", tags, "-o", binary, "./cmd/snowluma-mcp")
	build.Dir = root
	// Build from the local module cache only: the suite must not reach
	// any address but 127.0.0.1, so a missing module fails the build
	// instead of being downloaded.
	build.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0") // as make build builds it
	build.Env = append(build.Env, buildEnv()...)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go build failed: %v\n%s", err, out)
		return 1
	}
	snow = fake.New(fake.Options{Token: token})
	defer snow.Close()
	return m.Run()
}

// moduleRoot asks the go command where go.mod is, falling back to the
// parent directory (this package lives in <root>/e2e).
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if gomod := strings.TrimSpace(string(out)); err == nil && gomod != "" && gomod != os.DevNull {
		return filepath.Dir(gomod), nil
	}
	root, err := filepath.Abs("..")
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", err
	}
	return root, nil
}
