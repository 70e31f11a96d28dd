package main

import (
	"os"
	"path/filepath"
	"regexp"
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
