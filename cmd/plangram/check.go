package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/plangram/plangram/apply"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/lint"
	rpt "github.com/plangram/plangram/report"
	"github.com/plangram/plangram/workspace"
)

const checkUsage = "[--dialect auto|acts|plan|search-replace|udiff|apply-patch|tools] [--fence auto|backtick|tilde] [--schema FILE] [--root DIR] [--format text|json|sarif|llm] [--strict] [--disable CODE,...] [--summary] [--compact] [-q] [-v] [--include GLOB] [PATH...|-]"

// cmdCheck checks plans and reports every diagnostic (docs/check.md). Its
// report is its result, so it goes to standard output: text prints
// `FILE:LINE:COL: severity: message [code]` sorted by position, each
// structural error followed by its AST diff; json the diagnostics with
// their spans, per file; sarif SARIF 2.1.0; llm the correction message an
// agent sends back to the model (the errors, the AST view and the original
// plan). PATH is a file, "-" for standard input (also without PATH), or a
// directory (its *.md files); files are checked in parallel (package lint)
// and printed in order by one writer per format (package report). Exit 0
// without errors, 1 with errors (or warnings under --strict), 2 for usage
// or I/O errors.
func cmdCheck(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "check", checkUsage)
	pf := addParserFlags(fs)
	format := fs.String("format", rpt.Text, "output format: "+strings.Join(rpt.Formats(), ", "))
	root := fs.String("root", "", "project directory: also run the workspace rules (docs/check.md)")
	strict := fs.Bool("strict", false, "warnings fail too (exit 1)")
	disable := fs.String("disable", "", "comma-separated diagnostic codes to leave out (see also the plangram-disable comment, docs/check.md)")
	summary := fs.Bool("summary", false, "end text output with a summary line (default: only on a terminal)")
	compact := fs.Bool("compact", false, "print json and sarif output on one line (default: indented)")
	include := addIncludeFlag(fs)
	paths, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := oneOf("format", *format, rpt.Formats()...); err != nil {
		return usageError(e, err)
	}
	if len(paths) == 0 {
		paths = []string{lint.Stdin}
	}
	popts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	// Under auto a Markdown file with no plan is ordinary Markdown: no
	// no-plan note (lint.Options.QuietNoPlan).
	opts := lint.Options{Parse: popts, Root: *root, Stdin: e.stdin, Include: *include, QuietNoPlan: true}
	if *disable != "" {
		opts.Disable = strings.Split(*disable, ",")
		if err := checkCodes(opts.Disable); err != nil {
			return usageError(e, err)
		}
	}
	if *root != "" {
		if err := workspace.ValidateRoot(*root); err != nil {
			return usageError(e, err)
		}
		// An apply interrupted there is finished first (docs/apply.md),
		// so that the rules see the workspace whole, not half-written.
		rec, err := apply.Recover(ctx, *root)
		printRecovery(e, *root, rec)
		if err != nil {
			fmt.Fprintf(e.stderr, "plangram: check: %v\n", err)
		}
	}
	// The report is written once the run is over: the counter is cleared
	// first, so it shows whether or not standard output is the terminal.
	pr := &progress{}
	if n, err := lint.Expand(paths, *include...); err == nil {
		pr, e = newProgress(e, len(n), false)
		opts.Progress = func(done, _ int) { pr.step(done) }
	}
	files, runErr := lint.Run(ctx, paths, opts)
	pr.end()
	if ctx.Err() != nil {
		return usageError(e, ctx.Err())
	}
	shown := files
	if e.quiet {
		// -q: only what fails the run (errors; under --strict warnings
		// too), in every format; the exit code is the same.
		shown = make([]*rpt.File, len(files))
		for i, f := range files {
			c := *f
			c.Diagnostics = onlyErrors(f.Diagnostics, *strict)
			shown[i] = &c
		}
	}
	// The summary line, "3 errors, 1 warning in 2 files", counts every
	// diagnostic, shown or not, and the files checked.
	errs, warns := rpt.Count(files)
	sum := ""
	if *summary || e.outTTY {
		sum = fmt.Sprintf("%s, %s in %s", number.Plural(errs, "error"), number.Plural(warns, "warning"), number.Plural(len(files), "file"))
	}
	if err := writeReport(e, *format, shown, *compact, sum); err != nil {
		return usageError(e, err)
	}
	if runErr != nil {
		return usageError(e, runErr)
	}
	if errs > 0 || *strict && warns > 0 {
		return exitError
	}
	return exitOK
}

// writeReport writes check's report to standard output: text coloured on
// a terminal (unless NO_COLOR) and followed by the summary line when asked;
// json and sarif compacted to one line with --compact; the text format
// ends with the summary line when it is not "".
func writeReport(e *env, format string, files []*rpt.File, compact bool, summary string) error {
	opts := rpt.Options{SourceRoot: ".", ToolVersion: readVersion().Short(), FullDetail: e.verbose}
	if compact && (format == rpt.JSON || format == rpt.SARIF) {
		var b bytes.Buffer
		if err := rpt.Write(&b, format, files, opts); err != nil {
			return err
		}
		return compactJSON(e.stdout, b.Bytes())
	}
	w := &colorWriter{w: e.stdout, plain: format != rpt.Text || !e.colored(e.outTTY)}
	if err := rpt.Write(w, format, files, opts); err != nil {
		return err
	}
	if format == rpt.Text && summary != "" {
		if _, err := fmt.Fprintln(w, summary); err != nil {
			return err
		}
	}
	return w.Flush()
}
