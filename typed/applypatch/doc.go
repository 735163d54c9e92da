// Package applypatch is the typed API of the built-in codex apply_patch dialect
// (docs/apply-patch.md): one struct per action of schema/builtin/apply-patch.json, the
// Action union they implement, and Decode, which converts a parsed
// document's generic actions (package ast) into them.
//
// applypatch_gen.go is generated from the schema by `plangram gen go`; a test
// fails when it is stale. Regenerate it with `go generate ./typed/...`.
package applypatch

//go:generate go run ../../cmd/plangram gen go --dialect apply-patch --package applypatch -o applypatch_gen.go
