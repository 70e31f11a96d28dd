package main

import (
	"fmt"
	"strings"
)

// A target is one platform a release ships for, named as Go names it
// (GOOS/GOARCH) and as npm names it (os/cpu, process.platform and
// process.arch).
type target struct {
	GOOS, GOARCH string
}

// targets are the six platforms of a release (PLAT-1).
var targets = []target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func (t target) String() string { return t.GOOS + "/" + t.GOARCH }

// exe is the binary's file name on the target.
func (t target) exe() string {
	if t.GOOS == "windows" {
		return "snowluma-mcp.exe"
	}
	return "snowluma-mcp"
}

// npmOS and npmCPU are npm's names for the target: its package.json os and
// cpu, and what node reports as process.platform and process.arch there.
func (t target) npmOS() string {
	if t.GOOS == "windows" {
		return "win32"
	}
	return t.GOOS
}

func (t target) npmCPU() string {
	if t.GOARCH == "amd64" {
		return "x64"
	}
	return t.GOARCH
}

// npmPackage is the name of the target's platform package.
func (t target) npmPackage() string { return npmScope + "/" + t.npmOS() + "-" + t.npmCPU() }

// archive is the file name of the target's release archive: .zip for
// Windows, where it opens without other tools, and .tar.gz elsewhere, which
// keeps the binary's executable bit.
func (t target) archive(version string) string {
	ext := ".tar.gz"
	if t.GOOS == "windows" {
		ext = ".zip"
	}
	return "snowluma-mcp_" + version + "_" + t.GOOS + "_" + t.GOARCH + ext
}

// bundle is the file name of the target's MCP Bundle (bundle.go).
func (t target) bundle(version string) string {
	return "snowluma-mcp_" + version + "_" + t.GOOS + "_" + t.GOARCH + ".mcpb"
}

// parseTargets reads a comma-separated list of GOOS/GOARCH pairs, each one
// of the release targets; "" means all of them.
func parseTargets(list string) ([]target, error) {
	if strings.TrimSpace(list) == "" {
		return targets, nil
	}
	var out []target
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, t := range targets {
			if t.String() == name {
				out, found = append(out, t), true
			}
		}
		if !found {
			var known []string
			for _, t := range targets {
				known = append(known, t.String())
			}
			return nil, fmt.Errorf("unknown target %q: the release targets are %s", name, strings.Join(known, ", "))
		}
	}
	return out, nil
}
