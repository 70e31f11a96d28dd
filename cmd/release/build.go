package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// stampVar is the variable a release build sets with -X.
const stampVar = "github.com/snowluma/snowluma-mcp/internal/version.stamp"

// build compiles the server for t into dir and returns the binary's path.
// What makes two builds of one tree identical: -trimpath (no local paths),
// an empty build ID, static linking (CGO_ENABLED=0), and the baseline
// instruction sets pinned (GOAMD64=v1, GOARM64=v8.0, so that a GOAMD64=v3
// in the releaser's environment neither changes the bytes nor excludes older
// CPUs). -buildvcs=auto overrides a GOFLAGS=-buildvcs=false, so that the
// binary records the commit it came from when there is one.
func build(gocmd, root, dir string, t target, stamp string) (string, error) {
	ldflags := "-s -w -buildid="
	if stamp != "" {
		ldflags += " -X " + stampVar + "=" + stamp
	}
	out := filepath.Join(dir, t.GOOS+"_"+t.GOARCH, t.exe())
	cmd := exec.Command(gocmd, "build", "-trimpath", "-buildvcs=auto", "-ldflags", ldflags, "-o", out, "./cmd/snowluma-mcp")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+t.GOOS, "GOARCH="+t.GOARCH, "CGO_ENABLED=0", "GOAMD64=v1", "GOARM64=v8.0")
	if log, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build for %s: %v\n%s", t, err, log)
	}
	return out, nil
}

// zipEpoch is the earliest time a zip archive can record; the archives use
// it when neither SOURCE_DATE_EPOCH nor a commit time is known.
var zipEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// sourceDate is the one time stamp every archived file carries:
// SOURCE_DATE_EPOCH when set (the reproducible-builds convention), else the
// commit's time (zero when unknown), else zipEpoch. Never the time of the
// build.
func sourceDate(epoch string, commit time.Time) (time.Time, error) {
	if epoch = strings.TrimSpace(epoch); epoch != "" {
		s, err := strconv.ParseInt(epoch, 10, 64)
		if err != nil || s < zipEpoch.Unix() {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a count of seconds since 1970 from 1980 on", epoch)
		}
		return time.Unix(s, 0).UTC(), nil
	}
	if commit.After(zipEpoch) {
		return commit.UTC(), nil
	}
	return zipEpoch, nil
}
