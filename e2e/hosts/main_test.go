//go:build hosts

package hosts

// TestMain builds the binary, starts the fake SnowLuma the hosts' server
// talks to and the proxy recorder every host is pointed at, and finds the
// installed hosts. Re-run with teeFlag as its first argument, the test
// binary is instead the MCP server command a host starts (see tee).

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// token is the fake SnowLuma's access token; it must never reach a model.
const token = "sl-hosts-SECRET-TOKEN-7c41e09a"

// update rewrites the golden files instead of comparing with them.
var update = flag.Bool("update", false, "rewrite testdata/ from this run")

var (
	binary   string     // the built snowluma-mcp
	self     string     // this test binary, the tee a host starts
	hostsDir string     // the installed hosts (SNOWLUMA_HOSTS_DIR)
	snow     *fake.Fake // the fake SnowLuma
	egress   *recorder  // the proxy every host is given, which refuses
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == teeFlag {
		os.Exit(tee(os.Args[2:]))
	}
	os.Exit(suite(m))
}

func suite(m *testing.M) int {
	hostsDir = os.Getenv("SNOWLUMA_HOSTS_DIR")
	if hostsDir == "" {
		fmt.Fprintln(os.Stderr, "hosts: SNOWLUMA_HOSTS_DIR is not set; run make test-hosts, which installs the hosts and sets it")
		return 1
	}
	if os.Getenv("SNOWLUMA_HOSTS_ISOLATED") == "1" {
		if err := onlyLoopback(); err != nil {
			fmt.Fprintln(os.Stderr, "hosts:", err)
			return 1
		}
	}
	dir, err := os.MkdirTemp("", "snowluma-hosts-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "hosts:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if self, err = os.Executable(); err != nil {
		fmt.Fprintln(os.Stderr, "hosts:", err)
		return 1
	}
	binary = filepath.Join(dir, "snowluma-mcp")
	build := exec.Command("go", "build", "-o", binary, "./cmd/snowluma-mcp")
	build.Dir = filepath.Join("..", "..")
	// Offline: the run has no network but loopback; a missing module
	// fails the build instead of being fetched.
	build.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "hosts: go build failed: %v\n%s", err, out)
		return 1
	}
	snow = fake.New(fake.Options{Token: token})
	defer snow.Close()
	egress = newRecorder()
	defer egress.close()
	code := m.Run()
	if got := egress.attempts(); len(got) > 0 {
		fmt.Fprintf(os.Stderr, "hosts: the hosts tried to leave 127.0.0.1 (refused by the proxy):\n  %s\n", strings.Join(got, "\n  "))
		return 1
	}
	return code
}
