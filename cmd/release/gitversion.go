package main

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// releaseTag is a tag that names a release: v and a semantic version.
var releaseTag = regexp.MustCompile(`^v\d+\.\d+\.\d+\S*$`)

// fromGit is the version of the tree at root when none is given, and the
// time of its commit: the release tag on a clean tagged commit, otherwise a
// snapshot version in the form of Go's pseudo-versions,
// 0.0.0-<commit time>-<12 hex digits of the commit>, with +dirty when
// files differ from the commit. It asks git itself because the go command
// does not see every checkout (a git worktree, whose .git is a file).
func fromGit(root string) (string, time.Time, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", append([]string{"-C", root}, args...)...).Output()
		return strings.TrimSpace(string(out)), err
	}
	head, err := git("log", "-1", "--format=%H %ct")
	if err != nil {
		return "", time.Time{}, fmt.Errorf("git cannot read the commit: %w", err)
	}
	rev, ct, _ := strings.Cut(head, " ")
	secs, err := strconv.ParseInt(ct, 10, 64)
	if err != nil || len(rev) < 12 {
		return "", time.Time{}, fmt.Errorf("git printed %q for the commit", head)
	}
	when := time.Unix(secs, 0).UTC()
	status, err := git("status", "--porcelain")
	if err != nil {
		return "", time.Time{}, fmt.Errorf("git status: %w", err)
	}
	tags, err := git("tag", "--points-at", "HEAD")
	if err != nil {
		return "", time.Time{}, fmt.Errorf("git tag: %w", err)
	}
	if status == "" {
		for _, tag := range strings.Fields(tags) {
			if releaseTag.MatchString(tag) && semver.MatchString(tag[1:]) {
				return tag[1:], when, nil
			}
		}
	}
	v := "0.0.0-" + when.Format("20060102150405") + "-" + rev[:12]
	if status != "" {
		v += "+dirty"
	}
	return v, when, nil
}
