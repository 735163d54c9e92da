package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/format"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/internal/safewrite"
)

const fmtUsage = "[-w] [-d] [--dialect auto|acts|plan|search-replace|udiff|apply-patch] [--fence auto|backtick|tilde] [--schema FILE] [FILE...]"

// cmdFmt prints plans in canonical form (docs/fmt.md). Without FILE it
// reads standard input. -w rewrites changed files in place, atomically; -d
// prints a unified diff instead of the formatted text. Error diagnostics of
// the input are printed to stderr and make the exit status 1; the document
// is still formatted, since formatting never loses a byte of content.
func cmdFmt(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "fmt", fmtUsage)
	write := fs.Bool("w", false, "write the result to each FILE instead of standard output")
	diff := fs.Bool("d", false, "print a unified diff of the changes instead of the result")
	pf := addParserFlags(fs, "input dialect: auto, acts, plan, search-replace, udiff or apply-patch")
	files, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	opts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	if len(files) == 0 {
		if *write {
			return usageError(e, errors.New("fmt -w needs FILE arguments (it cannot rewrite standard input)"))
		}
		files = []string{"-"}
	}
	code := exitOK
	for _, path := range files {
		if path == "-" && *write {
			return usageError(e, errors.New("fmt -w cannot rewrite standard input"))
		}
		c := fmtFile(ctx, e, path, opts, *write, *diff)
		code = max(code, c)
	}
	return code
}

// fmtFile formats one file and returns its exit code.
func fmtFile(ctx context.Context, e *env, path string, opts grammar.Options, write, diff bool) int {
	name, src, err := readInput(e, path)
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
	}
	out, doc, err := format.Source(ctx, name, src, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: %s: %v\n", name, err)
		return exitUsage
	}
	code := exitOK
	for _, d := range doc.Diagnostics {
		if d.Severity == ast.Error {
			fmt.Fprintln(e.stderr, d.Format(name))
			code = exitError
		}
	}
	changed := !bytes.Equal(src, out)
	if diff && changed {
		if err := linediff.Unified(e.stdout, name+".orig", name, src, out, 3); err != nil {
			fmt.Fprintf(e.stderr, "plangram: %v\n", err)
			return exitUsage
		}
	}
	if write {
		if changed {
			if err := safewrite.WriteFile(path, out); err != nil {
				fmt.Fprintf(e.stderr, "plangram: %v\n", err)
				return exitUsage
			}
		}
	} else if !diff {
		if _, err := e.stdout.Write(out); err != nil {
			fmt.Fprintf(e.stderr, "plangram: %v\n", err)
			return exitUsage
		}
	}
	return code
}
