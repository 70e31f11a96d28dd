// Command release builds a release into dist/ (make dist): for each of the six
// targets a reproducible archive holding the binary, the READMEs and LICENSE
// (.tar.gz, or .zip for Windows) and an MCP Bundle for Claude Desktop
// (.mcpb, bundle.go), SHA256SUMS over both, and the npm
// packages under dist/npm: the main package snowluma-mcp, whose bin is a
// small node launcher (launcher.js), and one package per platform holding
// its binary. Nothing is published.
//
// Every binary is stamped with the version (-ldflags -X): the one given
// (make dist VERSION=1.2.0), else the one git gives the tree (gitversion.go:
// its release tag, or a snapshot version naming the commit). Two runs on
// one tree give the same bytes: see build.go and archive.go for what makes
// them so.
package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the release version, as npm writes it (1.2.0); empty: the tree's release tag, or a snapshot version naming its commit")
	out := fs.String("out", "dist", "the output directory; it must be absent or empty")
	list := fs.String("targets", "", "comma-separated GOOS/GOARCH targets, a subset of the six; empty: all")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dist: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	ts, err := parseTargets(*list)
	if err != nil {
		fmt.Fprintln(stderr, "dist:", err)
		return 2
	}
	// A version given is refused at once unless it is a semantic version,
	// before anything is read or written: it names every file and is
	// stamped into every binary, and a release takes only a version, never
	// text that a later step might read as something else.
	stamp := strings.TrimPrefix(strings.TrimSpace(*version), "v")
	if stamp != "" {
		if err := checkVersion(stamp); err != nil {
			fmt.Fprintln(stderr, "dist:", err)
			return 2
		}
	}
	files, err := release(*out, stamp, ts)
	if err != nil {
		fmt.Fprintln(stderr, "dist:", err)
		return 1
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return 0
}

// texts are the files every archive, bundle and the main npm package
// carry beside the binary: the README in each language it is written in
// (README.md links to the Chinese one), and the licence.
var texts = []string{"README.md", "README.zh-CN.md", "LICENSE"}

// readTexts reads texts from the module root.
func readTexts(root string) ([]entry, error) {
	docs := make([]entry, 0, len(texts))
	for _, name := range texts {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return nil, err
		}
		docs = append(docs, entry{name, 0o644, data})
	}
	return docs, nil
}

// release writes the release of targets into out and returns what it
// wrote at the top level of out.
func release(out, stamp string, targets []target) ([]string, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	if err := emptyDir(out); err != nil {
		return nil, err
	}
	docs, err := readTexts(root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "snowluma-dist-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	version, commit, gitErr := stamp, time.Time{}, error(nil)
	if v, c, err := fromGit(root); err == nil {
		commit = c
		if version == "" {
			version = v
		}
	} else {
		gitErr = err
	}
	if version == "" {
		return nil, fmt.Errorf("no version was given (make dist VERSION=1.2.3) and none can be derived from git: %w", gitErr)
	}
	if err := checkVersion(version); err != nil {
		return nil, err
	}
	docs = shippedTexts(docs, version)
	date, err := sourceDate(os.Getenv("SOURCE_DATE_EPOCH"), commit)
	if err != nil {
		return nil, err
	}
	built := map[target][]byte{}
	for _, t := range targets {
		bin, err := build("go", root, tmp, t, version)
		if err != nil {
			return nil, err
		}
		if built[t], err = os.ReadFile(bin); err != nil {
			return nil, err
		}
	}

	var sums bytes.Buffer
	var written []string
	for _, t := range targets {
		name := t.archive(version)
		entries := append([]entry{{t.exe(), 0o755, built[t]}}, docs...)
		dir := strings.TrimSuffix(strings.TrimSuffix(name, ".zip"), ".tar.gz")
		pack := tarGz
		if strings.HasSuffix(name, ".zip") {
			pack = zipArchive
		}
		data, err := pack(dir, entries, date)
		if err != nil {
			return nil, err
		}
		if err := writeFile(filepath.Join(out, name), data, 0o644); err != nil {
			return nil, err
		}
		written = append(written, name)
	}
	png := icon()
	for _, t := range targets {
		name := t.bundle(version)
		data, err := bundle(version, t, built[t], png, docs, date)
		if err != nil {
			return nil, err
		}
		if err := writeFile(filepath.Join(out, name), data, 0o644); err != nil {
			return nil, err
		}
		written = append(written, name)
	}
	sort.Strings(written)
	for _, name := range written {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(data), name)
	}
	if err := writeFile(filepath.Join(out, "SHA256SUMS"), sums.Bytes(), 0o644); err != nil {
		return nil, err
	}
	if err := writeNPM(filepath.Join(out, "npm"), version, built, docs); err != nil {
		return nil, err
	}
	return append(written, "SHA256SUMS", "npm/"), nil
}

// moduleRoot is the directory of the module's go.mod, where the build runs.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(b))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", errors.New("run make dist inside the snowluma-mcp module (go env GOMOD finds no go.mod)")
	}
	return filepath.Dir(gomod), nil
}

// emptyDir makes dir, which must be absent or empty, so that SHA256SUMS
// covers exactly the archives of this run.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty: remove it first (make dist does)", dir)
	}
	return nil
}
