package main

import (
	"context"

	"github.com/plangram/plangram/format"
	"github.com/plangram/plangram/grammar"
)

const fmtUsage = "[-l] [-d] [-w] [--dialect auto|acts|plan|search-replace|udiff|apply-patch|tools] [--fence auto|backtick|tilde] [--schema FILE] [--include GLOB] [PATH...|-]"

// cmdFmt prints plans in canonical form (docs/fmt.md). PATH is a file, a
// directory (its *.md files, recursively) or "-"; without PATH it reads
// standard input. -l lists the files whose format differs (exit 1 if
// any), -d prints a unified diff, -w rewrites changed files in place,
// atomically (see rewriteInputs). Error diagnostics of the input are
// printed to stderr and make the exit status 1; the document is still
// formatted, since formatting never loses a byte of content.
func cmdFmt(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "fmt", fmtUsage)
	rf := addRewriteFlags(fs, "canonical form")
	pf := addParserFlags(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	opts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	return rewriteInputs(ctx, e, "fmt", files, rf, func(ctx context.Context, e *env, in input, src []byte) ([]byte, int, error) {
		o := opts
		o.Dialect = grammar.FileDialect(in.name, o.Dialect)
		out, diags, err := format.Canonical(ctx, in.name, src, o)
		if err != nil {
			return nil, exitUsage, err
		}
		return out, printDiags(e, in.name, onlyErrors(diags, false)), nil
	})
}
