package main

import (
	"context"

	"github.com/plangram/plangram/codegen"
)

// cmdExample prints a canonical example document of a dialect, generated
// from its schema, for prompts.
func cmdExample(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "example", "(--dialect D [--schema FILE] | --schema FILE) [-o FILE]")
	dialect := fs.String("dialect", "", "built-in dialect; with --schema, the grammar that reads it")
	schemaFile := fs.String("schema", "", "action schema file (docs/schema.md)")
	out := fs.String("o", "", "write to FILE instead of standard output")
	if code, ok := parseNoArgs(e, fs, args); !ok {
		return code
	}
	s, _, code := resolveSchema(e, *dialect, *schemaFile)
	if s == nil {
		return code
	}
	doc, err := codegen.Example(s)
	return writeOutput(e, *out, doc, err)
}
