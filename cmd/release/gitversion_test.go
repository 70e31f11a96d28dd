package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionFromGit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tags  []string
		dirty bool
		want  string // REV stands for the commit's first 12 hex digits
	}{
		{"an untagged commit is a snapshot naming it", nil, false, "0.0.0-20261202175506-REV"},
		{"uncommitted changes are said", nil, true, "0.0.0-20261202175506-REV+dirty"},
		{"a release tag on a clean tree is the version", []string{"v1.2.0"}, false, "1.2.0"},
		{"a release tag on a dirty tree is not", []string{"v1.2.0"}, true, "0.0.0-20261202175506-REV+dirty"},
		{"a tag that is no version is ignored", []string{"nightly", "v1.2"}, false, "0.0.0-20261202175506-REV"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			git := func(args ...string) string {
				cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
				cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-12-02T18:55:06+01:00", "GIT_COMMITTER_DATE=2026-12-02T18:55:06+01:00",
					"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "git %v: %s", args, out)
				return strings.TrimSpace(string(out))
			}
			git("init", "--quiet")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644))
			git("add", "go.mod")
			git("commit", "--quiet", "-m", "first")
			for _, tag := range tt.tags {
				git("tag", tag)
			}
			if tt.dirty {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module y\n"), 0o644))
			}
			v, when, err := fromGit(dir)
			require.NoError(t, err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "REV", git("rev-parse", "HEAD")[:12]), v)
			assert.Equal(t, "2026-12-02T17:55:06Z", when.Format("2006-01-02T15:04:05Z07:00"), "the commit's time, in UTC")
		})
	}
}

func TestVersionFromGitOutsideACheckoutIsAnError(t *testing.T) {
	t.Parallel()
	_, _, err := fromGit(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "git cannot read the commit")
}
