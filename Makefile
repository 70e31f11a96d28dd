# The two commands CONTRIBUTING.md names: `make build` and `make test`.
GO ?= go

.PHONY: build panel clients test generate bench lint

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

# Regenerate catalog/catalog.gen.json from catalog/actions.
generate:
	$(GO) generate ./catalog

# The performance table of docs/performance.md: each figure with the command that
# produced it (cmd/benchtable runs them one after another, a few minutes).
# BENCHFLAGS passes flags to it, for example -rows=upload or -raw=DIR.
bench:
	$(GO) run ./cmd/benchtable $(BENCHFLAGS)

lint:
	test -z "$$(gofmt -l .)"
	$(GO) vet ./...
