package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWorkflowsBuildWithTheGoOfGoMod: the release is built with the Go
// that go.mod's go line names (setup-go reads it), and CI tests with that
// Go too, though its container image has to name the version itself.
func TestWorkflowsBuildWithTheGoOfGoMod(t *testing.T) {
	t.Parallel()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		require.NoError(t, err)
		return string(b)
	}
	goLine := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(read("go.mod"))
	require.NotNil(t, goLine, "go.mod has a go line")

	image := regexp.MustCompile(`(?m)^\s+image: golang:(\S+)-bookworm$`).FindStringSubmatch(read(".github/workflows/ci.yml"))
	require.NotNil(t, image, "ci.yml runs in a golang:<version>-bookworm container")
	assert.Equal(t, goLine[1], image[1], "CI's Go is go.mod's")
	assert.Regexp(t, `(?m)^\s+go-version-file: go\.mod$`, read(".github/workflows/release.yml"), "the release's Go is go.mod's")
}

// versionStep is the script of release.yml's step that reads the version
// from the tag: the block under its run: |, unindented.
func versionStep(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "release.yml"))
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "- name: Read the version from the tag" {
			start = i
			break
		}
	}
	require.NotEqual(t, -1, start, "release.yml has the step")
	for i := start + 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "run: |" {
			continue
		}
		indent := ""
		var script []string
		for _, l := range lines[i+1:] {
			if strings.TrimSpace(l) == "" {
				script = append(script, "")
				continue
			}
			if indent == "" {
				indent = l[:len(l)-len(strings.TrimLeft(l, " "))]
			}
			if !strings.HasPrefix(l, indent) {
				break
			}
			script = append(script, strings.TrimPrefix(l, indent))
		}
		return strings.Join(script, "\n")
	}
	t.Fatal("the step has no run: | block")
	return ""
}

// TestTheReleaseTakesOnlyASemanticVersionTag: the release job reads the
// version from the pushed tag and passes it on to make and cmd/release; a
// tag is any git ref name, quotes, ; and $ included, so the step lets
// through only a semantic version's characters. It runs the step's own
// script, under bash -e -o pipefail as the workflow does.
func TestTheReleaseTakesOnlyASemanticVersionTag(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	require.NoError(t, err)
	script := versionStep(t)
	tests := []struct {
		tag     string
		version string // "" when refused
		npmTag  string
	}{
		{"v1.2.0", "1.2.0", "latest"},
		{"v1.3.0-rc.1", "1.3.0-rc.1", "next"},
		{"v1.3.0-rc.1+build.7", "1.3.0-rc.1+build.7", "next"},
		{"v1.3.0+build-7", "1.3.0+build-7", "latest"},
		{"v10.20.30", "10.20.30", "latest"},
		{`v1.0.0-x";id>PWNED;"`, "", ""},
		{"v1.0.0-x$(id)", "", ""},
		{"v1.0.0-x`id`", "", ""},
		{"v1.0.0+x;id", "", ""},
		{"v1.0.0-rc..1", "", ""},
		{"v1.0.0-", "", ""},
		{"v1.0.0+", "", ""},
		{"v01.0.0", "", ""},
		{"v1.0", "", ""},
		{"1.0.0", "", ""},
		{"v1.0.0-rc_1", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.tag, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			output := filepath.Join(dir, "output")
			require.NoError(t, os.WriteFile(output, nil, 0o600))
			cmd := exec.Command(bash, "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GITHUB_REF_NAME="+tt.tag, "GITHUB_OUTPUT="+output)
			out, err := cmd.CombinedOutput()
			assert.NoFileExists(t, filepath.Join(dir, "PWNED"))
			got, rerr := os.ReadFile(output)
			require.NoError(t, rerr)
			if tt.version == "" {
				require.Error(t, err, "the tag is refused: %s", out)
				assert.Contains(t, string(out), "::error::the tag is not v and a semantic version")
				assert.Empty(t, string(got), "nothing is passed on")
				return
			}
			require.NoError(t, err, "%s", out)
			assert.Equal(t, "version="+tt.version+"\nnpm_tag="+tt.npmTag+"\nprerelease="+map[string]string{"next": "true", "latest": "false"}[tt.npmTag]+"\n", string(got))
		})
	}
}
