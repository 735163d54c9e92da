// Package tools is the typed API of the built-in streamed tool-call dialect
// (docs/stream.md): one struct per tool of schema/builtin/tools.json, the
// Action union they implement, and DecodeAction, which converts a tool call
// (an ast.Action built from a stream.Event's Name, Params and Span) into
// them.
//
// tools_gen.go is generated from the schema by `plangram gen go`; a test
// fails when it is stale. Regenerate it with `go generate ./typed/...`.
package tools

//go:generate go run ../../cmd/plangram gen go --dialect tools --package tools -o tools_gen.go
