// Package udiff is the typed API of the built-in unified diff dialect
// (docs/udiff.md): one struct per action of schema/builtin/udiff.json, the
// Action union they implement, and Decode, which converts a parsed
// document's generic actions (package ast) into them.
//
// udiff_gen.go is generated from the schema by `plangram gen go`; a test
// fails when it is stale. Regenerate it with `go generate ./typed/...`.
package udiff

//go:generate go run ../../cmd/plangram gen go --dialect udiff --package udiff -o udiff_gen.go
