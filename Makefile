# The two commands the README names: `make build` and `make test`.
GO ?= go

.PHONY: build test generate bench lint

build:
	$(GO) mod download
	$(GO) build -trimpath -o bin/snowluma-mcp ./cmd/snowluma-mcp

# Every unit and e2e test, with the race detector.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# Regenerate catalog/catalog.gen.json from catalog/actions.
generate:
	$(GO) generate ./catalog

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./server ./e2e

lint:
	test -z "$$(gofmt -l .)"
	$(GO) vet ./...
