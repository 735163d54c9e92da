package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lint"
	rpt "github.com/plangram/plangram/report"
	"github.com/plangram/plangram/workspace"
)

const checkUsage = "[--dialect auto|acts|plan|search-replace|udiff|apply-patch] [--fence auto|backtick|tilde] [--schema FILE] [--root DIR] [--format text|json|sarif|llm] PATH..."

// cmdCheck checks plans and reports every diagnostic (docs/plan.md,
// "plangram check"): text prints `FILE:LINE:COL: severity: message [code]`
// sorted by position, each structural error followed by its AST diff; json
// the diagnostics with their spans, per file; sarif SARIF 2.1.0; llm the
// correction message an agent sends back to the model (the errors, the AST
// view and the original plan). PATH is a file, "-" for standard input, or a
// directory (its *.md files); files are checked in parallel (package lint)
// and printed in order by one writer per format (package report). Exit 0
// without errors, 1 with errors, 2 for usage or I/O errors.
func cmdCheck(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "check", checkUsage)
	pf := addParserFlags(fs, "input dialect: auto, acts, plan, search-replace, udiff or apply-patch")
	format := fs.String("format", rpt.Text, "output format: "+strings.Join(rpt.Formats(), ", "))
	root := fs.String("root", "", "project directory: also run the workspace rules (docs/check.md)")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := oneOf("dialect", *pf.dialect, append([]string{grammar.DialectAuto}, grammar.Dialects()...)...); err != nil {
		return usageError(e, err)
	}
	if err := oneOf("format", *format, rpt.Formats()...); err != nil {
		return usageError(e, err)
	}
	if len(paths) == 0 {
		return usageError(e, errors.New("check needs at least one PATH (a file, a directory or - for stdin)"))
	}
	popts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	opts := lint.Options{Parse: popts, Root: *root, Stdin: e.stdin}
	if *root != "" {
		if err := workspace.ValidateRoot(*root); err != nil {
			return usageError(e, err)
		}
	}
	files, runErr := lint.Run(ctx, paths, opts)
	if ctx.Err() != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", ctx.Err())
		return exitUsage
	}
	if err := rpt.Write(e.stdout, *format, files, rpt.Options{SourceRoot: "."}); err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
	}
	if runErr != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", runErr)
		return exitUsage
	}
	if errs, _ := rpt.Count(files); errs > 0 {
		return exitError
	}
	return exitOK
}
