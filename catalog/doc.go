// Package catalog holds SnowLuma's bundled action catalog: the contract of
// every OneBot action (parameters, input schema, result schema, examples) and
// the lookups the tools need. The catalog is authored as one JSON source file
// per action under actions/, and `go generate` turns those files into the one
// embedded catalog.gen.json, so the binary never reads the source tree and a
// test notices when the generated file is stale.
package catalog

//go:generate go run ../cmd/catalog-gen -src actions -out catalog.gen.json
