package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testVersion is the version the tests' releases are stamped with.
const testVersion = "1.2.3-test.1"

// host is the release target this machine runs; the tests build only it,
// since building all six costs minutes on a cold cache.
func host(t *testing.T) target {
	t.Helper()
	h := target{runtime.GOOS, runtime.GOARCH}
	require.Contains(t, targets, h, "the tests run on one of the release targets")
	return h
}

var (
	sharedOnce sync.Once
	sharedDir  string
	sharedLog  string
)

// hostRelease is one make dist run for the host target, shared by the
// tests that only read it.
func hostRelease(t *testing.T) string {
	t.Helper()
	h := host(t)
	sharedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "snowluma-dist-test-")
		if err != nil {
			sharedLog = err.Error()
			return
		}
		sharedDir = filepath.Join(dir, "dist")
		sharedLog = distRun(sharedDir, h)
	})
	require.Empty(t, sharedLog, "make dist failed")
	return sharedDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedDir != "" {
		os.RemoveAll(filepath.Dir(sharedDir))
	}
	os.Exit(code)
}

// distRun runs make dist's command for target t into out; it returns its
// stderr when it fails.
func distRun(out string, t target) string {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-version", testVersion, "-targets", t.String(), "-out", out}, &stdout, &stderr); code != 0 {
		return fmt.Sprintf("exit %d: %s", code, stderr.String())
	}
	return ""
}

// tree is every file under dir with its mode and bytes.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = fmt.Sprintf("%v %x", info.Mode(), sha256.Sum256(b))
		return err
	}))
	return files
}

// TestTwoRunsGiveIdenticalReleases is the reproducibility check of make
// test: a second make dist run into another directory gives the same
// SHA256SUMS and the same npm packages, byte and mode for byte and mode.
// Both runs share the build cache; a cold-cache build was compared once
// by hand (see the README).
func TestTwoRunsGiveIdenticalReleases(t *testing.T) {
	t.Parallel()
	first := hostRelease(t)
	second := filepath.Join(t.TempDir(), "elsewhere", "dist")
	require.Empty(t, distRun(second, host(t)))

	sums, err := os.ReadFile(filepath.Join(first, "SHA256SUMS"))
	require.NoError(t, err)
	again, err := os.ReadFile(filepath.Join(second, "SHA256SUMS"))
	require.NoError(t, err)
	assert.Equal(t, string(sums), string(again), "two runs, identical checksums")
	assert.Equal(t, tree(t, first), tree(t, second), "two runs, identical files")
}

// TestReleaseHoldsWhatItPromises: SHA256SUMS covers every archive and
// bundle and matches them; the archive holds the binary, both READMEs
// and LICENSE under one directory, as do the bundle and the main npm
// package; the binary in it is stamped with the
// release version; the bundle passes mcpb validate and holds that binary.
func TestReleaseHoldsWhatItPromises(t *testing.T) {
	t.Parallel()
	dir := hostRelease(t)
	h := host(t)
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	require.NoError(t, err)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{h.archive(testVersion), h.bundle(testVersion), "SHA256SUMS", "npm"}, names)

	archive, err := os.ReadFile(filepath.Join(dir, h.archive(testVersion)))
	require.NoError(t, err)
	mcpbFile, err := os.ReadFile(filepath.Join(dir, h.bundle(testVersion)))
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("%x  %s\n%x  %s\n", sha256.Sum256(mcpbFile), h.bundle(testVersion), sha256.Sum256(archive), h.archive(testVersion)),
		string(sums), "every file, in name order")

	docs, err := readTexts(filepath.Join("..", ".."))
	require.NoError(t, err)
	docs = shippedTexts(docs, testVersion)
	prefix := strings.TrimSuffix(h.archive(testVersion), ".tar.gz") + "/"
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	got := map[string][]byte{}
	bin := filepath.Join(t.TempDir(), h.exe())
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		b, err := io.ReadAll(tr)
		require.NoError(t, err)
		got[hdr.Name] = b
		if hdr.Name == prefix+h.exe() {
			assert.Equal(t, int64(0o755), hdr.Mode)
			require.NoError(t, os.WriteFile(bin, b, 0o755))
		}
	}
	var in []string
	for name := range got {
		in = append(in, name)
	}
	slices.Sort(in)
	assert.Equal(t, []string{prefix, prefix + "LICENSE", prefix + "README.md", prefix + "README.zh-CN.md", prefix + h.exe()}, in)
	for _, d := range docs {
		assert.Equal(t, d.Data, got[prefix+d.Name], "the archive's %s", d.Name)
	}

	out, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.Equal(t, "snowluma-mcp "+testVersion+"\n", string(out), "the archived binary is stamped with the release version")

	// The bundle: valid, its manifest at the release version, and the
	// same binary, executable where the host unpacks it.
	unpacked := validateBundle(t, filepath.Join(dir, h.bundle(testVersion)))
	var manifest struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(unpacked, "manifest.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &manifest))
	assert.Equal(t, testVersion, manifest.Version)
	inBundle := filepath.Join(unpacked, "server", h.exe())
	out, err = exec.Command(inBundle, "--version").Output()
	require.NoError(t, err, "the bundled binary runs as unpacked")
	assert.Equal(t, "snowluma-mcp "+testVersion+"\n", string(out), "the bundled binary is stamped with the release version")
	b, err = os.ReadFile(inBundle)
	require.NoError(t, err)
	archived, err := os.ReadFile(bin)
	require.NoError(t, err)
	assert.Equal(t, archived, b, "the bundle and the archive hold the same binary")
	for _, d := range docs {
		b, err = os.ReadFile(filepath.Join(unpacked, d.Name))
		require.NoError(t, err)
		assert.Equal(t, d.Data, b, "the bundle's %s", d.Name)
		b, err = os.ReadFile(filepath.Join(dir, "npm", "snowluma-mcp", d.Name))
		require.NoError(t, err)
		assert.Equal(t, d.Data, b, "the npm package's %s", d.Name)
	}
}

func TestDistRefusesWhatWouldMakeABadRelease(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(full, "old.tar.gz"), nil, 0o644))
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"a version npm would refuse", []string{"-version", "devel", "-out", filepath.Join(t.TempDir(), "d")}, 2, `the version "devel" is not a semantic version`},
		{"a version that carries shell", []string{"-version", `1.0.0-x";id>PWNED;"`, "-out", filepath.Join(t.TempDir(), "d")}, 2, `the version "1.0.0-x\";id>PWNED;\"" is not a semantic version`},
		{"a version with a space", []string{"-version", "1.0.0 -rc.1", "-out", filepath.Join(t.TempDir(), "d")}, 2, "is not a semantic version"},
		{"an output directory with old files", []string{"-version", "1.0.0", "-out", full}, 1, "is not empty: remove it first"},
		{"an unknown target", []string{"-targets", "plan9/amd64"}, 2, `unknown target "plan9/amd64"`},
		{"a stray argument", []string{"now"}, 2, `unexpected argument "now"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tt.wantCode, run(tt.args, &stdout, &stderr))
			assert.Contains(t, stderr.String(), tt.wantErr)
			assert.Empty(t, stdout.String())
			if tt.wantCode == 2 {
				for i, a := range tt.args {
					if a == "-out" {
						assert.NoDirExists(t, tt.args[i+1], "a refused argument writes nothing")
					}
				}
			}
		})
	}
}
