# The two commands the README names: `make build` and `make test`.
GO ?= go

.PHONY: build panel clients test generate bench lint cross test-windows

# The panel first: the binary embeds uiasset/dist/index.html. The interop
# tests' clients are installed here too, so that make test needs no network.
# The binary is static (CGO_ENABLED=0): no C library is mapped into it
# (1.3 MiB less resident memory), and it runs on any Linux of its
# architecture.
build: panel clients
	$(GO) mod download
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/snowluma-mcp ./cmd/snowluma-mcp

# The message preview panel and its browser-test host, from the committed
# lockfile (node >= 20.19 and npm).
panel:
	cd uiasset && npm ci --no-audit --no-fund && npm run build

# The real MCP clients the interop tests drive (e2e/clients), pinned, from
# the committed lockfile. --ignore-scripts: the Inspector's postinstall only
# builds its own source checkout and does nothing when it is a dependency.
clients:
	cd e2e/clients && npm ci --no-audit --no-fund --ignore-scripts

# Every unit and e2e test, with the race detector.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	$(MAKE) cross test-windows

# Regenerate catalog/catalog.gen.json from catalog/actions.
generate:
	$(GO) generate ./catalog

# The README's performance table: each figure with the command that
# produced it (cmd/benchtable runs them one after another, a few minutes).
# BENCHFLAGS passes flags to it, for example -rows=upload or -raw=DIR.
bench:
	$(GO) run ./cmd/benchtable $(BENCHFLAGS)

lint:
	test -z "$$(gofmt -l .)"
	$(GO) vet ./...

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
