package e2e

// Running the browser harness (uiasset/host/harness.mjs): node drives the
// real binary with the v2 MCP client and renders the panel in Debian's
// headless Chromium through ext-apps' AppBridge. This file starts it and
// decodes what it saw; panel_test.go says what must be true.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// panelScenario is one render of the panel in the test host.
type panelScenario struct {
	Name  string `json:"name"`
	Theme string `json:"theme"`
	// Locale is the host context's locale; "" is a host that gives none.
	Locale string `json:"locale,omitempty"`
	// SwitchLocale, when set, is a locale the host switches to after the
	// action (a host-context-changed notification).
	SwitchLocale string `json:"switchLocale,omitempty"`
	ServerTools  bool   `json:"serverTools"`
	// HostFails makes the host fail the panel's tools/call itself.
	HostFails bool `json:"hostFails"`
	// SendFirst, when set, is invoke_action arguments the host sends just
	// before it forwards the panel's call.
	SendFirst   map[string]any `json:"sendFirst,omitempty"`
	Args        map[string]any `json:"args"`
	Traceparent string         `json:"traceparent"`
	// Action is none, click, dblclick or force (a click forced onto a
	// disabled button).
	Action     string `json:"action"`
	Screenshot string `json:"screenshot,omitempty"`

	traceID string
}

// panelRender is what the panel showed after the scenario's action.
type panelRender struct {
	Name                string   `json:"name"`
	To                  string   `json:"to"`
	Reply               *string  `json:"reply"`
	Text                string   `json:"text"`
	TextElements        int      `json:"textElements"`
	ForeignElements     int      `json:"foreignElements"`
	Scripts             int      `json:"scripts"`
	ResourceLoads       []string `json:"resourceLoads"`
	Pwned               bool     `json:"pwned"`
	Theme               string   `json:"theme"`
	Background          string   `json:"background"`
	ButtonText          string   `json:"buttonText"`
	ButtonDisabled      bool     `json:"buttonDisabled"`
	DisabledBeforeClick bool     `json:"disabledBeforeAction"`
	Reason              string   `json:"reason"`
	Badge               string   `json:"badge"`
	Status              string   `json:"status"`
	StatusKind          string   `json:"statusKind"`
	PreviewIsError      bool     `json:"previewIsError"`
	// StatusTitle is the status box's heading, the panel's own words.
	StatusTitle string `json:"statusTitle"`
	// Visible is the page's text as a person sees it (innerText).
	Visible   string   `json:"visible"`
	Lang      string   `json:"lang"`
	Title     string   `json:"title"`
	Heading   string   `json:"heading"`
	Labels    []string `json:"labels"`
	Summary   string   `json:"summary"`
	Count     string   `json:"count"`
	TextLabel string   `json:"textLabel"`
	// BeforeSwitch is what the panel showed before the host switched its
	// locale (scenarios with SwitchLocale only).
	BeforeSwitch *panelRender `json:"beforeSwitch"`
}

// panelRun is the harness's whole report.
type panelRun struct {
	Era             string `json:"era"`
	ProtocolVersion string `json:"protocolVersion"`
	Tool            struct {
		ResourceURI       string `json:"resourceUri"`
		LegacyResourceURI string `json:"legacyResourceUri"`
	} `json:"tool"`
	ResourceListed bool `json:"resourceListed"`
	Resource       struct {
		MIMEType   string  `json:"mimeType"`
		Bytes      int     `json:"bytes"`
		TTLMs      *int    `json:"ttlMs"`
		CacheScope *string `json:"cacheScope"`
	} `json:"resource"`
	Renders   []panelRender `json:"renders"`
	Requests  []string      `json:"requests"`
	HostCalls []struct {
		Render    string          `json:"render"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"hostCalls"`
	// Relaunches is 1 when Chromium died before loading any page and was
	// started again (the harness's only retry).
	Relaunches int `json:"relaunches"`
}

// render returns the render named name.
func (r *panelRun) render(t *testing.T, name string) panelRender {
	t.Helper()
	for _, x := range r.Renders {
		if x.Name == name {
			return x
		}
	}
	require.FailNow(t, "no render named "+name)
	return panelRender{}
}

// callsFrom counts the host's tools/call requests made by a render.
func (r *panelRun) callsFrom(name string) int {
	n := 0
	for _, c := range r.HostCalls {
		if c.Render == name {
			n++
		}
	}
	return n
}

// runPanel runs the harness at version against a binary started with vars,
// in Debian's chromium, and requires it to succeed. node and chromium are
// required: the browser test is part of make test, and .ci/run installs
// both.
func runPanel(t *testing.T, version string, vars map[string]string, scenarios []panelScenario) *panelRun {
	t.Helper()
	browser, err := exec.LookPath("chromium")
	require.NoError(t, err, "the browser test needs Debian's chromium: apt-get install -y chromium (.ci/run does)")
	h := startPanel(t, version, vars, scenarios, browser)
	require.NoError(t, h.err, "harness failed; stderr:\n%s", h.stderr)
	run := decodePanel(t, h)
	if run.Relaunches > 0 {
		// Said in the test log, so a loop of runs can count the browser's
		// own deaths (issue 23).
		t.Logf("chromium died before any page loaded and was relaunched once; harness stderr:\n%s", h.stderr)
	}
	return run
}

// decodePanel reads the report of a harness run that succeeded.
func decodePanel(t *testing.T, h panelExit) *panelRun {
	t.Helper()
	var run panelRun
	require.NoError(t, json.Unmarshal([]byte(h.stdout), &run), "harness output: %s", redact(h.stdout))
	return &run
}

// panelExit is how one run of the harness ended.
type panelExit struct {
	stdout, stderr string
	err            error
}

// startPanel runs the harness once with browser as its Chromium and
// reports how it ended, whether or not it succeeded.
func startPanel(t *testing.T, version string, vars map[string]string, scenarios []panelScenario, browser string) panelExit {
	t.Helper()
	root, err := moduleRoot()
	require.NoError(t, err)
	node, err := exec.LookPath("node")
	require.NoError(t, err, "the browser test needs node (>= 20.19); .ci/run installs it")
	harness := filepath.Join(root, "uiasset", "host", "harness.mjs")
	_, err = os.Stat(filepath.Join(root, "uiasset", "host", "dist", "index.html"))
	require.NoError(t, err, "the test host is not built: run make build")

	serverEnv := map[string]string{"HOME": home, "SNOWLUMA_MCP_STATE_DIR": freshStateDir()}
	for k, v := range vars {
		serverEnv[k] = v
	}
	era := "legacy"
	if version == modern {
		era = "modern"
	}
	// Chromium puts a socket in TMPDIR, and a socket path may not exceed
	// 107 bytes: t.TempDir's names are too long.
	tmp, err := os.MkdirTemp("", "slpw")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	// A bound for a hung run, never a judgement of speed. It lies beyond
	// the harness's own 240 s bound, which says on stderr where it stopped:
	// at 120 s, runs that were merely slow on a machine loaded twenty times
	// over its 2 cores were killed without a word (issue 23).
	ctx, cancel := context.WithTimeout(context.Background(), 10*safety)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, harness)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + tmp,
		"PANEL_BINARY=" + binary, "PANEL_SERVER_ENV=" + string(mustJSON(t, serverEnv)),
		"PANEL_ERA=" + era, "PANEL_SCENARIOS=" + string(mustJSON(t, scenarios)), "PANEL_CHROMIUM=" + browser,
	}
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	err = cmd.Run()
	assertNoSecrets(t, "harness output", stdout.String(), stderr.Raw())
	return panelExit{stdout: stdout.String(), stderr: stderr.String(), err: err}
}

// artifact is a path for a file the test leaves behind to be looked at
// (e2e/artifacts is gitignored).
func artifact(t *testing.T, name string) string {
	t.Helper()
	root, err := moduleRoot()
	require.NoError(t, err)
	dir := filepath.Join(root, "e2e", "artifacts")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return filepath.Join(dir, name)
}
