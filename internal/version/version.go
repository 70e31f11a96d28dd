// Package version says which snowluma-mcp this is, in one string that
// `snowluma-mcp --version`, serverInfo.version and the release archives and
// npm packages all use.
//
// A release build stamps it (make dist: -ldflags "-X
// github.com/snowluma/snowluma-mcp/internal/version.stamp=1.2.0"). A build
// without the stamp, such as `go install …@v1.2.0` or `go build` in a
// checkout, falls back to what the go command recorded in the binary: the
// module version (the tag, or a pseudo-version naming the commit), else the
// VCS revision, so that a bug report always names the code it came from.
package version

import (
	"runtime/debug"
	"strings"
)

// stamp is set only by the linker (-X); it stays a variable for that reason.
var stamp string

// devel begins the version of every build without a release version.
const devel = "devel"

// Unknown is the version of a binary that carries neither a stamp nor any
// build information (built with -buildvcs=false, a common GOFLAGS, outside
// a module version): it says where such a binary came from, since it
// cannot name the commit.
const Unknown = devel + " (built from source)"

// String is this binary's version.
func String() string {
	info, _ := debug.ReadBuildInfo()
	return Resolve(stamp, info)
}

// Resolve picks the version from a release stamp, else from build
// information (nil when there is none). Versions are written without the
// leading "v" of Go module versions, as npm and serverInfo write them: the
// tag v1.2.0 and the stamp 1.2.0 are both "1.2.0".
func Resolve(stamp string, info *debug.BuildInfo) string {
	if s := strings.TrimSpace(stamp); s != "" {
		return strings.TrimPrefix(s, "v")
	}
	if info == nil {
		return Unknown
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	var revision string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision == "" {
		return Unknown
	}
	// The form Go gives an untagged commit's pseudo-version suffix: twelve
	// hex digits, and +dirty for uncommitted changes.
	v := devel + "-" + revision[:min(12, len(revision))]
	if modified {
		v += "+dirty"
	}
	return v
}
