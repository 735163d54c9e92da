package main

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/codegen"
)

// cmdGen generates code from an action schema; `gen go` writes Go types
// and a decoder from the generic AST.
func cmdGen(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "gen", "go (--dialect D | --schema FILE) --package NAME [-o FILE]")
	dialect := fs.String("dialect", "", "built-in dialect whose schema to use")
	schemaFile := fs.String("schema", "", "action schema file (docs/schema.md)")
	pkg := fs.String("package", "", "package name of the generated file")
	out := fs.String("o", "", "write to FILE instead of standard output")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 || pos[0] != "go" {
		return usageError(e, fmt.Errorf("gen takes one language: go"))
	}
	if *pkg == "" {
		return usageError(e, fmt.Errorf("gen go needs --package NAME"))
	}
	s, source, code := resolveSchema(e, *dialect, *schemaFile)
	if s == nil {
		return code
	}
	src, err := codegen.Go(s, codegen.GoOptions{Package: *pkg, Source: source})
	return writeOutput(e, *out, src, err)
}
