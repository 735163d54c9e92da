package main

import (
	"context"
	"fmt"
	"os"

	"github.com/alecthomas/repr"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/fix"
	"github.com/plangram/plangram/grammar"
	rpt "github.com/plangram/plangram/report"
	"github.com/plangram/plangram/schema"
)

const parseUsage = "[--dialect auto|acts|plan|search-replace|udiff|apply-patch] [--fence auto|backtick|tilde] [--format json|repr] [--schema FILE] [--fix] [FILE|-]"

func cmdParse(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "parse", parseUsage)
	pf := addParserFlags(fs, "input dialect: auto, acts, plan, search-replace, udiff or apply-patch")
	format := fs.String("format", "json", "output format: json or repr")
	doFix := fs.Bool("fix", false, "repair what LLMs typically break (plangram fix) in memory first; each repair is a warning")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := oneOf("format", *format, "json", "repr"); err != nil {
		return usageError(e, err)
	}
	if len(pos) > 1 {
		return usageError(e, fmt.Errorf("parse takes one FILE (or - for stdin), got %d", len(pos)))
	}
	opts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	path := "-"
	if len(pos) == 1 {
		path = pos[0]
	}
	name, src, err := readInput(e, path)
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
	}
	var repairs []*ast.Diagnostic
	if *doFix {
		src, repairs = fix.Apply(src, opts.Dialect)
	}
	doc, err := grammar.Parse(ctx, name, src, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
	}
	if len(repairs) > 0 {
		doc.Diagnostics = append(repairs, doc.Diagnostics...)
		ast.SortDiagnostics(doc.Diagnostics)
	}
	if err := writeDoc(e, doc, *format); err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
	}
	return report(e, name, doc.Diagnostics)
}

// writeDoc prints the document in the chosen format.
func writeDoc(e *env, doc *ast.Document, format string) error {
	if format == "repr" {
		_, err := fmt.Fprintln(e.stdout, repr.String(doc, repr.Indent("  "), repr.OmitEmpty(true)))
		return err
	}
	data, err := ast.JSON(doc)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(data)
	return err
}

// report prints diagnostics to stderr and returns the exit code they imply.
func report(e *env, name string, diags []*ast.Diagnostic) int {
	code := exitOK
	for _, d := range rpt.OnceDetail(diags) {
		fmt.Fprintln(e.stderr, d.Format(name))
		if d.Severity == ast.Error {
			code = exitError
		}
	}
	return code
}

func usageError(e *env, err error) int {
	fmt.Fprintf(e.stderr, "plangram: %v\n", err)
	return exitUsage
}

// loadSchema reads and validates a schema file.
func loadSchema(path string) (*schema.Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("plangram: %w", err)
	}
	return schema.Parse(path, data)
}
