package e2e

// The npm packages of make dist, as a user gets them: every package packed
// with npm pack, the tarballs installed offline into an empty directory
// (no registry is reachable: it is 127.0.0.1:9), and `npx snowluma-mcp`
// driven by the pinned TypeScript client on both protocol generations
// (issue 19). The release is built for this machine's platform only:
// building the other five costs minutes on a cold cache, and their
// packages come from the same code (cmd/release's tests check their names,
// os and cpu).

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// npxVersion is the version the test's release is stamped with.
const npxVersion = "1.2.3-npx.1"

// npmOffline are the npm settings that keep every npm command here off the
// network and out of the user's cache.
func npmOffline(cache string) []string {
	return []string{"npm_config_cache=" + cache, "npm_config_offline=true", "npm_config_registry=http://127.0.0.1:9/",
		"npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false"}
}

// installFromTarballs builds the release for this platform, packs every
// npm package in it, installs the tarballs offline into an empty
// directory and returns that directory and the npm cache it used.
func installFromTarballs(t *testing.T) (project, cache string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "this test needs npm (with node >= 20.19): .ci/run installs it")
	root, err := moduleRoot()
	require.NoError(t, err)
	dir := t.TempDir()
	cache = filepath.Join(dir, "npm-cache")
	env := append(append(os.Environ(), npmOffline(cache)...), "GOPROXY=off", "GOTOOLCHAIN=local")

	dist := filepath.Join(dir, "dist")
	build := exec.Command("go", "run", "./cmd/release", "-version", npxVersion, "-targets", runtime.GOOS+"/"+runtime.GOARCH, "-out", dist)
	build.Dir, build.Env = root, env
	out, err := build.CombinedOutput()
	require.NoError(t, err, "make dist for this platform: %s", out)

	packages, err := os.ReadDir(filepath.Join(dist, "npm"))
	require.NoError(t, err)
	tarballs := filepath.Join(dir, "tarballs")
	require.NoError(t, os.Mkdir(tarballs, 0o755))
	var packed []string
	for _, p := range packages {
		pack := exec.Command(npm, "pack", filepath.Join(dist, "npm", p.Name()), "--pack-destination", tarballs, "--json")
		pack.Env = env
		out, err := pack.Output()
		require.NoError(t, err, "npm pack %s", p.Name())
		var report []struct {
			Filename string `json:"filename"`
		}
		require.NoError(t, json.Unmarshal(out, &report), "%s", out)
		require.Len(t, report, 1)
		packed = append(packed, filepath.Join(tarballs, report[0].Filename))
	}
	require.Len(t, packed, 2, "the main package and this platform's")

	project = filepath.Join(dir, "project")
	require.NoError(t, os.Mkdir(project, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"private": true}`+"\n"), 0o644))
	install := exec.Command(npm, append([]string{"install"}, packed...)...)
	install.Dir, install.Env = project, env
	out, err = install.CombinedOutput()
	require.NoError(t, err, "npm install of the tarballs, offline: %s", out)
	return project, cache
}

func TestNPXRunsTheServerFromTheNPMPackages(t *testing.T) {
	t.Parallel()
	interopClients(t)
	project, cache := installFromTarballs(t)
	npx, err := exec.LookPath("npx")
	require.NoError(t, err)

	version := exec.Command(npx, "--no", "--", "snowluma-mcp", "--version")
	version.Dir = project
	version.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, npmOffline(cache)...)
	out, err := version.Output()
	require.NoError(t, err)
	assert.Equal(t, "snowluma-mcp "+npxVersion+"\n", string(out), "the installed packages run the release's binary")

	vars := map[string]string{"PATH": os.Getenv("PATH")}
	for _, kv := range npmOffline(cache) {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			var report struct {
				negotiatedReport
				ServerInfo struct {
					Name    string `json:"name"`
					Version string `json:"version"`
				} `json:"serverInfo"`
				Tools []string     `json:"tools"`
				Docs  clientResult `json:"docs"`
				Exit  struct {
					Code   *int    `json:"code"`
					Signal *string `json:"signal"`
				} `json:"exit"`
			}
			runClient(t, "npx.mjs", era, vars, map[string]any{"npx": npx, "cwd": project}, &report)
			report.assertNegotiated(t, era)
			assert.Equal(t, "snowluma-mcp", report.ServerInfo.Name)
			assert.Equal(t, npxVersion, report.ServerInfo.Version)
			assert.Subset(t, report.Tools, []string{"list_actions", "search_actions", "get_action", "list_categories", "get_runtime_info", "preview_message"})
			assert.False(t, report.Docs.IsError, "the docs call succeeds: %+v", report.Docs)
			var action struct {
				Name string `json:"name"`
			}
			report.Docs.decode(t, &action)
			assert.Equal(t, "get_login_info", action.Name)
			require.NotNil(t, report.Exit.Code, "npx exited rather than being killed by a signal (%v)", report.Exit.Signal)
			assert.Equal(t, 0, *report.Exit.Code, "a clean exit when the client closes stdin")
		})
	}
}
