// Package plan is the typed API of the built-in structured Markdown plan
// dialect (docs/plan.md): one struct per action of schema/builtin/plan.json,
// the Action union they implement, and Decode, which converts a parsed
// plan's generic actions (package ast) into them.
//
// plan_gen.go is generated from the schema by `plangram gen go`; a test
// fails when it is stale. Regenerate it with `go generate ./typed/...`.
package plan

//go:generate go run ../../cmd/plangram gen go --dialect plan --package plan -o plan_gen.go
