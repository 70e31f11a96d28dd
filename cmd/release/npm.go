package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The npm packages follow the pattern esbuild and biome use: one main
// package, snowluma-mcp (unscoped, so `npx -y snowluma-mcp` works; the
// predecessor is @snowluma/mcp), whose bin is a small node launcher and
// whose optionalDependencies name one package per platform. npm installs
// only the platform package whose os and cpu match, and the launcher runs
// its binary.
const (
	npmMain  = "snowluma-mcp"
	npmScope = "@snowluma-mcp"
	repoURL  = "https://github.com/snowluma/snowluma-mcp"
)

// launcher is the main package's bin: plain node, no dependencies.
//
//go:embed launcher.js
var launcher []byte

// semver is npm's version syntax (semver.org 2.0.0), which a package's
// version must follow.
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// checkVersion refuses a version npm would refuse, before anything is
// written.
func checkVersion(version string) error {
	if !semver.MatchString(version) {
		return fmt.Errorf("the version %q is not a semantic version, which npm requires: "+
			"give one (make dist VERSION=1.2.3) or build from a git checkout, whose commit gives a pseudo-version", version)
	}
	return nil
}

type repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// manifest is a package.json; its field order is the file's.
type manifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Repository           repository        `json:"repository"`
	Homepage             string            `json:"homepage"`
	Keywords             []string          `json:"keywords,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Files                []string          `json:"files"`
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
}

func common(name, version, description string) manifest {
	return manifest{Name: name, Version: version, Description: description, License: "MIT",
		Repository: repository{Type: "git", URL: "git+" + repoURL + ".git"}, Homepage: repoURL + "#readme"}
}

// mainManifest is the main package's package.json; every platform package
// of all is an optional dependency at exactly this version.
func mainManifest(version string, all []target) manifest {
	m := common(npmMain, version, "MCP server (stdio) that gives AI agents safe, observable access to a SnowLuma (OneBot v11) QQ bot.")
	m.Keywords = []string{"mcp", "model-context-protocol", "mcp-server", "snowluma", "onebot", "qq"}
	m.Bin = map[string]string{npmMain: "bin/snowluma-mcp.js"}
	m.Files = []string{"bin/snowluma-mcp.js"}
	m.Engines = map[string]string{"node": ">=18"}
	m.OptionalDependencies = map[string]string{}
	for _, t := range all {
		m.OptionalDependencies[t.npmPackage()] = version
	}
	return m
}

// platformManifest is t's platform package: npm installs it only where os
// and cpu match. It has no bin of its own: the main package's launcher
// runs it. preferUnplugged tells Yarn to unpack it, since a binary cannot
// run from inside a zip.
func platformManifest(version string, t target) manifest {
	m := common(t.npmPackage(), version, fmt.Sprintf("The %s %s binary of snowluma-mcp; install snowluma-mcp instead.", t.npmOS(), t.npmCPU()))
	m.OS, m.CPU = []string{t.npmOS()}, []string{t.npmCPU()}
	m.Files = []string{"bin/" + t.exe()}
	m.PreferUnplugged = true
	return m
}

// platformReadme is what npm shows for a platform package.
func platformReadme(t target) string {
	return fmt.Sprintf("# %s\n\nThe %s %s binary of [snowluma-mcp](%s). Do not install this package yourself: "+
		"install `snowluma-mcp`, which depends on it for this platform and runs it (`npx -y snowluma-mcp`).\n",
		t.npmPackage(), t.npmOS(), t.npmCPU(), repoURL)
}

// writeNPM writes the main package and the platform package of every
// built target under dir: dir/snowluma-mcp and dir/<os>-<cpu>. The main
// package names all the release's platforms, so that a launcher built from
// a partial run still lists what a release offers.
// version is a checked one (checkVersion).
func writeNPM(dir, version string, built map[target][]byte, docs []entry) error {
	files := map[string][]byte{
		"snowluma-mcp/package.json":        jsonFile(mainManifest(version, targets)),
		"snowluma-mcp/bin/snowluma-mcp.js": launcher,
	}
	var license []byte
	for _, d := range docs {
		files["snowluma-mcp/"+d.Name] = d.Data
		if d.Name == "LICENSE" {
			license = d.Data
		}
	}
	for _, t := range targets {
		bin, ok := built[t]
		if !ok {
			continue
		}
		pkg := t.npmOS() + "-" + t.npmCPU()
		files[pkg+"/package.json"] = jsonFile(platformManifest(version, t))
		files[pkg+"/bin/"+t.exe()] = bin
		files[pkg+"/README.md"] = []byte(platformReadme(t))
		files[pkg+"/LICENSE"] = license
	}
	for name, data := range files {
		mode := os.FileMode(0o644)
		if strings.Contains(name, "/bin/") {
			mode = 0o755 // the launcher and the binaries
		}
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), data, mode); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes data with exactly mode, whatever the umask, since the
// mode is part of what npm packs.
func writeFile(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}

// jsonFile encodes a manifest as npm writes one: two-space indents, and
// ">=" left as it is rather than escaped for HTML.
func jsonFile(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // a manifest always encodes
	}
	return b.Bytes()
}
