// Package acts is the typed API of the built-in fenced-acts dialect
// (docs/acts.md): one struct per action of schema/builtin/acts.json, the
// Action union they implement, and Decode, which converts a parsed
// document's generic actions (package ast) into them.
//
// acts_gen.go is generated from the schema by `plangram gen go`; a test
// fails when it is stale. Regenerate it with `go generate ./typed/...`.
package acts

//go:generate go run ../../cmd/plangram gen go --dialect acts --package acts -o acts_gen.go
