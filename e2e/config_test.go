package e2e

// Configuration (BASE-1, Q-2): a malformed value is an error on stderr
// naming the variable, with nothing on stdout and the token nowhere, and
// the server then starts in its explaining state (issue 30 §2): the
// handshake completes, the instructions say what is wrong, only the
// documentation tools are listed, get_runtime_info fails as configuration
// naming the variable, and nothing reaches SnowLuma or the disk. Read/write
// mode without an endpoint warns and serves docs mode; values are trimmed
// and the mode is case-insensitive.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/config"
)

// runOnce starts the binary with stdin already closed and returns its exit
// code, stdout and stderr.
func runOnce(t *testing.T, vars map[string]string) (int, string, string) {
	t.Helper()
	return runBinary(t, vars)
}

// runBinary runs the binary with args and vars, stdin closed, and returns
// its exit code and its stdout and stderr, redacted (callers quote them in
// failure messages) after checking that no secret appears in either.
func runBinary(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = environ(vars)
	cmd.Stdin = strings.NewReader("")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "the binary did not exit: %v", args)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	assertNoSecrets(t, "stdout", stdout.String())
	assertNoSecrets(t, "stderr", stderr.String())
	return code, redact(stdout.String()), redact(stderr.String())
}

func TestMalformedConfigurationIsNamedAndExplained(t *testing.T) {
	t.Parallel()
	base := map[string]string{"SNOWLUMA_MCP_TOKEN": token, "SNOWLUMA_MCP_ENDPOINT": snow.URL()}
	tests := []struct {
		name     string
		variable string
		value    string
		// optional: an optional service's setting, which turns off that
		// service only, with a warning, instead of explaining.
		optional bool
	}{
		{"an unknown mode", "SNOWLUMA_MCP_MODE", "bogus", false},
		{"a relative download dir", "SNOWLUMA_MCP_DOWNLOAD_DIR", "relative/downloads", true},
		{"a relative upload root", "SNOWLUMA_MCP_UPLOAD_ROOT", "uploads", true},
		{"a non-numeric timeout", "SNOWLUMA_MCP_TIMEOUT_MS", "soon", false},
		{"a zero timeout", "SNOWLUMA_MCP_TIMEOUT_MS", "0", false},
		{"a non-numeric size limit", "SNOWLUMA_MCP_MAX_FILE_BYTES", "1GB", false},
		{"an ftp endpoint", "SNOWLUMA_MCP_ENDPOINT", "ftp://x", false},
		{"an endpoint without a host", "SNOWLUMA_MCP_ENDPOINT", "http://", false},
		{"an endpoint embedding the token", "SNOWLUMA_MCP_ENDPOINT", "http://bot:" + token + "@127.0.0.1:9/", false},
		{"an http events URL", "SNOWLUMA_MCP_EVENTS_URL", "http://127.0.0.1:9/", true},
		{"an events URL carrying the token in its query", "SNOWLUMA_MCP_EVENTS_URL", "ws://127.0.0.1:9/?access_token=" + token, true},
		{"an events URL embedding the token", "SNOWLUMA_MCP_EVENTS_URL", "ws://bot:" + token + "@127.0.0.1:9/", true},
		{"a relative task dir", "SNOWLUMA_MCP_TASK_DIR", "tasks", true},
		{"zero concurrent streams", "SNOWLUMA_MCP_MAX_STREAMS", "0", false},
		{"an upload chunk over SnowLuma's body cap", "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "2097152", false},
		{"an upload chunk whose request would pass SnowLuma's body cap", "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES", "1572864", false},
		{"a negative quota", "SNOWLUMA_MCP_DOWNLOAD_QUOTA_BYTES", "-1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runOnce(t, with(base, tt.variable, tt.value))
			assert.Zero(t, code, "the server explains instead of exiting; it ends when stdin closes: %s", stderr)
			assert.Empty(t, stdout, "stdout carries only protocol messages")
			if tt.optional {
				assert.Contains(t, stderr, "snowluma-mcp: warning: "+tt.variable, "the message names the variable")
				assert.NotContains(t, stderr, "configuration error", "the rest of the mode works")
				return
			}
			assert.Contains(t, stderr, "snowluma-mcp: configuration error: "+tt.variable, "the message names the variable")
		})
	}
}

func TestExecutionModeWithoutEndpointWarnsAndServesDocs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mode string
	}{
		{"read", "read"},
		{"write", "write"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, map[string]string{"SNOWLUMA_MCP_MODE": tt.mode, "SNOWLUMA_MCP_TOKEN": token})
				assert.ElementsMatch(t, listed(t, "docs"), s.toolNames())
				r := s.call(t, "get_runtime_info", nil, nil)
				var info runtimeInfo
				r.decodeResult(t, &info)
				assert.Equal(t, "docs", info.Mode)
				stderr := redact(s.closeCleanly(t))
				assert.Contains(t, stderr, "warning")
				assert.Contains(t, stderr, "SNOWLUMA_MCP_ENDPOINT")
			})
		})
	}
}

func TestConfigurationValuesAreTrimmedAndModeIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, map[string]string{
			"SNOWLUMA_MCP_MODE":       "  WRITE ",
			"SNOWLUMA_MCP_ENDPOINT":   " " + snow.URL() + " ",
			"SNOWLUMA_MCP_TOKEN":      " " + token + "\t",
			"SNOWLUMA_MCP_TIMEOUT_MS": " 4321 ",
		})
		assert.Contains(t, s.toolNames(), "invoke_action")
		c := s.run(t, "query_action", "get_status", nil, "")
		assert.False(t, c.res.IsError, "the trimmed token is accepted: %s", c.res.Text)
		sent := c.sent(t)
		require.Len(t, sent, 1)
		assertBearer(t, sent[0].Header, token)
	})
}

func TestModeDefaultsFollowTheEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		vars     map[string]string
		wantMode string
	}{
		{"no endpoint means docs", map[string]string{}, "docs"},
		{"an endpoint means read", map[string]string{"SNOWLUMA_MCP_ENDPOINT": "ENDPOINT", "SNOWLUMA_MCP_TOKEN": token}, "read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				vars := map[string]string{}
				for k, v := range tt.vars {
					if v == "ENDPOINT" {
						v = snow.URL()
					}
					vars[k] = v
				}
				s := start(t, version, vars)
				r := s.call(t, "get_runtime_info", nil, nil)
				var info runtimeInfo
				r.decodeResult(t, &info)
				assert.Equal(t, tt.wantMode, info.Mode)
			})
		})
	}
}

// TestSettingsTheModeIgnoresAreNamedOnStderr: an events URL or a task
// directory that the mode leaves unused is a warning, not silence.
func TestSettingsTheModeIgnoresAreNamedOnStderr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		vars     map[string]string
		variable string
	}{
		{"an events URL in docs mode", map[string]string{"SNOWLUMA_MCP_EVENTS_URL": "ws://127.0.0.1:9/"}, "SNOWLUMA_MCP_EVENTS_URL"},
		{"a task dir in docs mode", map[string]string{"SNOWLUMA_MCP_TASK_DIR": t.TempDir()}, "SNOWLUMA_MCP_TASK_DIR"},
		{"a task dir in read mode", map[string]string{"SNOWLUMA_MCP_ENDPOINT": snow.URL(), "SNOWLUMA_MCP_TASK_DIR": t.TempDir()}, "SNOWLUMA_MCP_TASK_DIR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runOnce(t, with(tt.vars, "SNOWLUMA_MCP_TOKEN", token))
			assert.Zero(t, code, "an ignored setting does not stop the server: %s", stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "snowluma-mcp: warning: "+tt.variable+" is ignored")
		})
	}
}

// TestATokenThatCannotBeSentIsRefused: a token with a control character
// inside (a line break pasted with it) is refused at start with a message that
// names the variable and says what is wrong, and repeats no part of the
// token; before, every call failed later as an unreachable SnowLuma.
func TestATokenThatCannotBeSentIsRefused(t *testing.T) {
	t.Parallel()
	head, tail := token[:len(token)/2], token[len(token)/2:]
	tests := []struct {
		name  string
		value string
	}{
		{"a line break inside", head + "\n" + tail},
		{"a carriage return and line feed inside", head + "\r\n" + tail},
		{"a tab inside", head + "\t" + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runOnce(t, map[string]string{
				"SNOWLUMA_MCP_MODE": "read", "SNOWLUMA_MCP_ENDPOINT": snow.URL(), "SNOWLUMA_MCP_TOKEN": tt.value,
			})
			assert.Zero(t, code, "the server explains instead of exiting: %s", stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "SNOWLUMA_MCP_TOKEN must not contain control characters")
			assert.NotContains(t, stderr, head, "no part of the token is repeated")
			assert.NotContains(t, stderr, tail, "no part of the token is repeated")
		})
	}
}

// TestAnUploadChunkSizeOfZeroIsNotBlamedOnTheBodyCap: zero is not a size
// at all, and the message says so rather than talking about SnowLuma's
// body cap, which only a size that is too large could pass.
func TestAnUploadChunkSizeOfZeroIsNotBlamedOnTheBodyCap(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runOnce(t, map[string]string{"SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES": "0"})
	assert.Zero(t, code, "the server explains instead of exiting")
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES must be a whole number of bytes from 1 to 1571840")
	assert.NotContains(t, stderr, "body cap")
}

// TestEmptyValuesAreUnset: a variable present in the environment with an
// empty value is treated exactly as one left out, for every variable the
// server reads. An MCP Bundle's host passes an empty value for each setting
// the user leaves blank (cmd/release/bundle.go), so this is what a bundle
// without optional settings runs with. Write mode, where the runtime report
// describes the most settings (limits, upload, downloads, pacing,
// lockdown, events and tasks absent).
func TestEmptyValuesAreUnset(t *testing.T) {
	t.Parallel()
	var names []string
	_, _, err := config.Load(func(name string) string { names = append(names, name); return "" })
	require.NoError(t, err)
	base := writeEnv()
	blank := with(base)
	for _, name := range names {
		if _, set := base[name]; !set {
			blank[name] = ""
		}
	}
	require.Greater(t, len(blank), len(base)+10, "every variable but the three set is present and empty")
	forEachVersion(t, func(t *testing.T, version string) {
		report := func(vars map[string]string) (json.RawMessage, []string, string) {
			s := start(t, version, vars)
			r := s.call(t, "get_runtime_info", nil, nil)
			require.False(t, r.IsError, r.Text)
			tools := s.toolNames()
			slices.Sort(tools)
			return r.Result, tools, redact(s.closeCleanly(t))
		}
		wantInfo, wantTools, _ := report(base)
		gotInfo, gotTools, stderr := report(blank)
		// The harness gives a server left without SNOWLUMA_MCP_STATE_DIR a
		// state directory of its own, so that tests do not share send
		// budgets; the blank run has the variable, empty, and so gets the
		// server's default. Everything else must be the same.
		wantDir, _ := stateOf(t, wantInfo)
		gotDir, gotInfo := stateOf(t, gotInfo)
		_, wantInfo = stateOf(t, wantInfo)
		assert.NotEqual(t, wantDir, gotDir, "the blank run used the default state directory, not the harness's")
		assert.True(t, filepath.IsAbs(gotDir) && filepath.Base(gotDir) == "snowluma-mcp", "an empty SNOWLUMA_MCP_STATE_DIR is the default per-user one: %s", gotDir)
		assert.JSONEq(t, string(wantInfo), string(gotInfo), "the runtime report is the same as with the variables left out")
		assert.Equal(t, wantTools, gotTools)
		assert.NotContains(t, stderr, "warning", "an empty value is not a setting the mode ignores")
	})
}

// stateOf takes the shared send state's directory out of a runtime report:
// it returns the directory and the report without it (and its file).
func stateOf(t *testing.T, info json.RawMessage) (string, json.RawMessage) {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(info, &m))
	pace, _ := m["send_pace"].(map[string]any)
	shared, _ := pace["shared"].(map[string]any)
	require.NotNil(t, shared, "write mode reports the shared send state: %s", info)
	dir, _ := shared["state_dir"].(string)
	delete(shared, "state_dir")
	delete(shared, "state_file")
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return dir, out
}

// TestAMisspeltSettingIsNamedWithWhatItMeant: a variable named like a
// setting that the server does not read (a letter short, another word for
// a feature) would leave its feature off without a word. It is named on
// stderr at start with the setting it most likely meant, never with its
// value, and the server starts as it would without it.
func TestAMisspeltSettingIsNamedWithWhatItMeant(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		variable string
		says     string
	}{
		{"a trusted-users list a letter short", "SNOWLUMA_MCP_TRUSTED_USER", "did you mean SNOWLUMA_MCP_TRUSTED_USERS?"},
		{"the pace under another word", "SNOWLUMA_MCP_SEND_PACING", "did you mean SNOWLUMA_MCP_SEND_PACE?"},
		{"lockdown by its name in the README", "SNOWLUMA_MCP_LOCKDOWN", "lockdown is turned on by SNOWLUMA_MCP_TRUSTED_USERS"},
		{"a name like no setting", "SNOWLUMA_MCP_FROM_A_NEWER_HOST", "Configuration table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The token as the value: runBinary fails the test if it
			// appears anywhere in the output.
			code, stdout, stderr := runOnce(t, map[string]string{"SNOWLUMA_MCP_ENDPOINT": snow.URL(), "SNOWLUMA_MCP_MODE": "write", tt.variable: token})
			assert.Zero(t, code, "an unknown variable does not stop the server: %s", stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "snowluma-mcp: warning: "+tt.variable+" is not a variable this server reads, so it is ignored")
			assert.Contains(t, stderr, tt.says)
			assert.NotContains(t, stderr, "<token>", "the value is never printed")
		})
	}
}

// TestTheAgentIsToldOfIgnoredVariables: an MCP host hides stderr, and the
// agent is often the one the user asks why lockdown is off, so a variable
// the server does not read is named to the agent as well: in the
// instructions at initialize, and in get_runtime_info's ignored_variables,
// each with the setting it likely meant and never its value (the token,
// which the harness fails the test for finding in stderr). In the
// explaining state, the failure of get_runtime_info names it too.
func TestTheAgentIsToldOfIgnoredVariables(t *testing.T) {
	t.Parallel()
	const misspelt, meant = "SNOWLUMA_MCP_TRUSTED_USER", config.TrustedUsersVar
	tests := []struct {
		name   string
		env    map[string]string
		strays bool
		broken bool
	}{
		{"none is ignored", readEnv(), false, false},
		{"a misspelt trusted-users list", with(readEnv(), misspelt, token), true, false},
		{"a misspelt setting beside a malformed one", with(readEnv(), misspelt, token, "SNOWLUMA_MCP_TIMEOUT_MS", "soon"), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, tt.env)
				instructions := s.session.InitializeResult().Instructions
				r := s.call(t, "get_runtime_info", nil, nil)
				assertNoSecrets(t, "the instructions and get_runtime_info", instructions, r.Text, string(r.Result))
				named := misspelt + " (likely meant " + meant + ")"
				if !tt.strays {
					assert.NotContains(t, instructions, "Ignored")
					require.False(t, r.IsError, r.Text)
					var m map[string]json.RawMessage
					r.decodeResult(t, &m)
					assert.NotContains(t, m, "ignored_variables", "omitted when none is ignored")
					return
				}
				assert.Contains(t, instructions, "Ignored environment variables")
				assert.Contains(t, instructions, named)
				if tt.broken {
					assert.Contains(t, instructions, "not configured: SNOWLUMA_MCP_TIMEOUT_MS")
					assert.Equal(t, "configuration", r.Diag.Kind)
					assert.Contains(t, r.Diag.Message, named)
					return
				}
				require.False(t, r.IsError, r.Text)
				var info struct {
					Ignored []struct {
						Name        string `json:"name"`
						LikelyMeant string `json:"likely_meant"`
						Fix         string `json:"fix"`
					} `json:"ignored_variables"`
					Lockdown struct {
						Enabled bool `json:"enabled"`
					} `json:"lockdown"`
				}
				r.decodeResult(t, &info)
				require.Len(t, info.Ignored, 1, "%s", r.Result)
				assert.Equal(t, misspelt, info.Ignored[0].Name)
				assert.Equal(t, meant, info.Ignored[0].LikelyMeant)
				assert.Contains(t, info.Ignored[0].Fix, "did you mean "+meant+"?")
				assert.False(t, info.Lockdown.Enabled, "the misspelt list turns nothing on")
			})
		})
	}
}

// TestOnlyUnknownVariablesAreNamed: the settings the README lists and the
// test hooks draw no unknown-variable warning.
func TestOnlyUnknownVariablesAreNamed(t *testing.T) {
	t.Parallel()
	vars := map[string]string{config.RuntimeStatsVar: "1", "SNOWLUMA_MCP_ENDPOINT": snow.URL(), "SNOWLUMA_MCP_TOKEN": token}
	for _, name := range config.Variables() {
		if _, set := vars[name]; !set && name != "SNOWLUMA_MCP_STATE_DIR" {
			vars[name] = ""
		}
	}
	vars[config.TrustedUsersVar] = "10001"
	_, _, stderr := runOnce(t, vars)
	assert.NotContains(t, stderr, "is not a variable this server reads")
}
