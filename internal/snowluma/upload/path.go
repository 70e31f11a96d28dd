package upload

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// RootVar is the setting that names the upload root.
const RootVar = "SNOWLUMA_MCP_UPLOAD_ROOT"

// RootProblem says what keeps root from serving as the upload root, or ""
// when it is a directory that can be listed. The root is the user's
// setting, so a root that is missing or a file is the user's to fix, not
// the agent's: it is checked at start (a warning), in get_runtime_info and
// before each upload, since the user may create it while the server runs.
func RootProblem(root string) string { return RootWhy(root).EN }

// RootWhy is RootProblem in English and Chinese (`check` in a Chinese
// terminal); the operating system's own cause stays as it says it.
func RootWhy(root string) lang.Text {
	info, err := os.Stat(root)
	switch {
	case os.IsNotExist(err):
		return lang.Text{EN: "names a directory that does not exist", ZH: "指向的文件夹不存在"}
	case err != nil:
		return lang.Text{EN: "cannot be inspected (" + fault.PathCause(err) + ")", ZH: "无法检查（" + fault.PathCause(err) + "）"}
	case !info.IsDir():
		return lang.Text{EN: "names a file, not a directory", ZH: "指向的是文件，不是文件夹"}
	}
	f, err := os.Open(root)
	if err != nil {
		return lang.Text{EN: "names a directory that cannot be read (" + fault.PathCause(err) + ")", ZH: "指向的文件夹无法读取（" + fault.PathCause(err) + "）"}
	}
	_ = f.Close()
	return lang.Text{}
}

// Resolve turns execution.input_file into the real path of a regular file
// inside root, refusing anything that could reach outside it: a ".."
// component, an absolute path elsewhere, or a symlink (anywhere on the way)
// that resolves outside, and on Windows also what that platform reads in
// other ways than it looks (unsafeName, where in path_windows.go).
// Relative paths are taken relative to root. Nothing is sent before this
// check passes.
func Resolve(root, input string) (string, os.FileInfo, error) {
	if root == "" {
		return "", nil, fault.Errorf(fault.CodeInvalidArgument,
			"automatic upload is disabled: the user can set SNOWLUMA_MCP_UPLOAD_ROOT to a directory of allowed files").Unsent().
			Then("Nothing was sent, and no argument can change that: tell the user that uploading a file from this machine needs the setting " +
				RootVar + " (a directory of files the agent may upload) in this server's entry of the MCP client configuration, then a restart of the server.")
	}
	if input == "" {
		return "", nil, fault.Errorf(fault.CodeInvalidArgument, "execution.input_file is empty")
	}
	if why := unsafeName(input); why != "" {
		return "", nil, refuse(why)
	}
	for _, part := range strings.FieldsFunc(input, func(r rune) bool { return r == '/' || r == os.PathSeparator }) {
		if part == ".." {
			return "", nil, refuse("it contains a \"..\" component")
		}
		if why := unsafePart(part); why != "" {
			return "", nil, refuse(why)
		}
	}
	if why := RootProblem(root); why != "" {
		return "", nil, fault.Errorf(fault.CodeConfiguration, "%s %s, so no file can be uploaded from it; "+
			"the user can create that directory or set %s to an existing one", RootVar, why, RootVar).Unsent()
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", nil, fault.Errorf(fault.CodeConfiguration, "%s cannot be resolved", RootVar).Unsent()
	}
	path := input
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		return "", nil, fault.Errorf(fault.CodeInvalidArgument, "execution.input_file does not exist or cannot be resolved")
	}
	switch where(realRoot, real) {
	case atRoot:
		return "", nil, refuse("it names the upload root itself, a directory: name a file inside the root")
	case outside:
		return "", nil, refuse("it resolves outside the upload root")
	}
	info, err := os.Lstat(real)
	if err != nil {
		return "", nil, fault.Wrap(fault.CodeInvalidArgument, err, "cannot inspect execution.input_file")
	}
	if !info.Mode().IsRegular() {
		return "", nil, refuse("it is not a regular file")
	}
	return real, info, nil
}

// place is where a resolved path lies against the upload root, as the
// platform's where decides it (path_unix.go, path_windows.go).
type place int

const (
	outside place = iota
	atRoot
	within
)

func refuse(why string) error {
	return fault.Errorf(fault.CodeInvalidArgument, "execution.input_file is refused: %s", why)
}
