# The two commands CONTRIBUTING.md names: `make build` and `make test`.
GO ?= go

.PHONY: build docs bin uiasset-deps panel clients test test-hosts generate bench lint dist cross test-windows

# The set-up command (CI runs it before make test): the binary, and the npm
# packages the tests use, so that make test needs no network: uiasset's
# (the browser test's host, and the check that the committed panel is a
# fresh build of its source) and the interop tests' clients; and the
# generated parts of the docs, brought up to date with the code.
build: docs bin uiasset-deps clients

# The parts of the READMEs and docs/ that the code knows (tool, setting
# and kind tables, the trust boundary, the stage order), rewritten between
# their markers by cmd/docgen; make test fails when a committed page is
# stale (TestTheDocsAreGenerated).
docs:
	$(GO) generate ./cmd/docgen

# The binary alone, with Go only: it embeds the committed panel
# (uiasset/dist/index.html), so building it needs no node or npm. It is
# static (CGO_ENABLED=0): no C library is mapped into it (1.3 MiB less
# resident memory), and it runs on any Linux of its architecture.
bin:
	$(GO) mod download
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/snowluma-mcp ./cmd/snowluma-mcp

# uiasset's packages from the committed lockfile (node >= 20.19 and npm),
# and the browser test's host built with them. The panel itself is not
# rebuilt here: make test checks that the committed file is what its source
# builds to, which a rebuild just before would make meaningless.
uiasset-deps:
	cd uiasset && npm ci --no-audit --no-fund && npm run build:host

# After editing uiasset/ source: rebuild the committed panel, then commit
# uiasset/dist/index.html with the source.
panel: uiasset-deps
	cd uiasset && npm run build:panel

# The real MCP clients the interop tests drive (e2e/clients), and the mcpb
# CLI with which cmd/release's tests validate the bundles, pinned, from the
# committed lockfile. --ignore-scripts: the Inspector's postinstall only
# builds its own source checkout and does nothing when it is a dependency.
clients:
	cd e2e/clients && npm ci --no-audit --no-fund --ignore-scripts

# The linters, then every unit and e2e test with the race detector.
test: lint
	$(GO) test -race -count=1 -timeout 30m ./...
	$(MAKE) cross test-windows

# The host suite (e2e/hosts): Claude Code, Gemini CLI and Codex, pinned
# by e2e/hosts/package-lock.json and installed into a cache outside the
# repository (~/.cache/snowluma-hosts/<lockfile hash>, about 0.9 GB), each
# driven headless against a local stand-in for its model API that plays a
# fixed script of tool calls; what each host hands back to the model is held
# in e2e/hosts/testdata. The run has no network but loopback (a network
# namespace: needs root; e2e/hosts/isolated.sh says why and what else).
# UPDATE=1 rewrites the golden files instead of comparing, and then the
# docs generated from them (platforms.md's host table): review the diff.
# RUN=TestCodex runs one host's tests (go test -run).
UPDATE ?=
RUN ?=
test-hosts:
	@dir="$$(bash e2e/hosts/install.sh)" && \
	$(GO) vet -tags hosts ./e2e/hosts && \
	$(GO) build -modfile=tools.mod -o bin/tools/ honnef.co/go/tools/cmd/staticcheck && \
	bin/tools/staticcheck -tags hosts ./e2e/hosts && \
	$(GO) test -c -tags hosts -o bin/hosts.test ./e2e/hosts && \
	SNOWLUMA_HOSTS_DIR="$$dir" bash e2e/hosts/isolated.sh bin/hosts.test -test.count=1 -test.v -test.timeout 30m $(if $(RUN),-test.run '$(RUN)') $(if $(UPDATE),-update && $(GO) generate ./cmd/docgen)

# A release in dist/ (cmd/release): reproducible archives and MCP Bundles
# (.mcpb) for linux, darwin and windows, amd64 and arm64, SHA256SUMS, and
# the npm packages in dist/npm.
# Nothing is published. VERSION=1.2.0 stamps the release; without it, the
# version is the commit's release tag, or a snapshot version naming the
# commit. TARGETS=linux/amd64,darwin/arm64 builds only those. make test
# checks a run for this machine's platform (cmd/release's tests,
# e2e/npx_test.go, e2e/bundle_test.go).
# Both reach the recipe as exported variables that the shell quotes
# ("$$VERSION"), never pasted into its text: a version that carries shell
# (a pushed tag such as v1.0.0-x";id;") stays one argument, which
# cmd/release then refuses as not a semantic version.
# (cmd/release's TestMakeDistPassesTheVersionAsOneArgument.)
VERSION ?=
TARGETS ?=
export VERSION TARGETS
dist:
	rm -rf dist
	$(GO) run ./cmd/release -version "$$VERSION" -targets "$$TARGETS" -out dist

# Regenerate what is written from the code: catalog/catalog.gen.json from
# catalog/actions, each tool's definition snapshot and the tools each mode
# lists (handlers/testdata, rewritten by the handlers' tests with -update),
# then the docs (whose tables read both). Review git diff afterwards: a
# snapshot that changed is a definition a model reads that changed.
generate:
	$(GO) generate ./catalog
	$(GO) test ./handlers -count=1 -update
	$(GO) generate ./cmd/docgen

# The performance table of docs/performance.md: each figure with the command that
# produced it (cmd/benchtable runs them one after another, a few minutes).
# BENCHFLAGS passes flags to it, for example -rows=upload or -raw=DIR.
bench:
	$(GO) run ./cmd/benchtable $(BENCHFLAGS)

# gofmt, vet, goimports (three import groups: the standard library, other
# modules, then this module's), staticcheck, deadcode, and actionlint. A function can be
# reachable on one operating system only (filename.Trimmed is used on
# Windows alone), so deadcode runs for each and only what none of them
# reaches fails. actionlint checks the workflows in .github/workflows
# (syntax, expressions, contexts, permissions); its shellcheck and pyflakes
# passes are off, so that lint gives the same verdict on every machine
# whatever else is installed there. The linters are pinned in tools.mod,
# apart from the binary's own dependencies, and built for this machine into
# bin/tools.
LINT_OS := linux darwin windows
lint:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt: these files need gofmt -w:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) build -modfile=tools.mod -o bin/tools/ golang.org/x/tools/cmd/deadcode golang.org/x/tools/cmd/goimports honnef.co/go/tools/cmd/staticcheck github.com/rhysd/actionlint/cmd/actionlint
	@out="$$(bin/tools/goimports -l -local github.com/snowluma/snowluma-mcp .)"; if [ -n "$$out" ]; then echo "goimports: these files mix the groups (standard library, others, then this module's); run bin/tools/goimports -w -local github.com/snowluma/snowluma-mcp on:"; echo "$$out"; exit 1; fi
	bin/tools/actionlint -shellcheck= -pyflakes=
	bin/tools/staticcheck ./...
	@dead="$$(for os in $(LINT_OS); do GOOS=$$os bin/tools/deadcode ./cmd/... || echo "deadcode failed for $$os"; done | sort | uniq -c | awk '$$1 == $(words $(LINT_OS)) || /deadcode failed/')"; \
	if [ -n "$$dead" ]; then echo "deadcode: unreachable on every platform:"; echo "$$dead"; exit 1; fi

# PLAT-1: every release target compiles, static, from this one tree.
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

cross:
	@for p in $(PLATFORMS); do \
		echo "cross: $$p"; \
		CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./... || exit 1; \
	done

# PLAT-2: the Windows build's unit tests and an e2e smoke of the Windows
# binary under Wine; installs Wine and MinGW when missing and prepares its
# own prefix under bin/_wine (e2e/wine/test.sh says why each step is there).
test-windows:
	GO=$(GO) bash e2e/wine/test.sh
