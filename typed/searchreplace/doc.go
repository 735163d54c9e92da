// Package searchreplace is the typed API of the built-in aider SEARCH/REPLACE dialect
// (docs/search-replace.md): one struct per action of schema/builtin/search-replace.json, the
// Action union they implement, and Decode, which converts a parsed
// document's generic actions (package ast) into them.
//
// searchreplace_gen.go is generated from the schema by `plangram gen go`; a test
// fails when it is stale. Regenerate it with `go generate ./typed/...`.
package searchreplace

//go:generate go run ../../cmd/plangram gen go --dialect search-replace --package searchreplace -o searchreplace_gen.go
