package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/alecthomas/repr"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

const parseUsage = "[--dialect auto|acts|plan] [--fence auto|backtick|tilde] [--format json|repr] [--schema FILE] [FILE|-]"

func cmdParse(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "parse", parseUsage)
	dialect := fs.String("dialect", "auto", "input dialect: auto, acts or plan")
	fence := fs.String("fence", "auto", "acts fence character: auto, backtick or tilde")
	format := fs.String("format", "json", "output format: json or repr")
	schemaFile := fs.String("schema", "", "action schema file replacing the dialect's built-in one")
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
	fc, err := lexer.ParseFence(*fence)
	if err != nil {
		return usageError(e, err)
	}
	opts := grammar.Options{Dialect: *dialect, Fence: fc}
	if *schemaFile != "" {
		if opts.Schema, err = loadSchema(*schemaFile); err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitUsage
		}
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
	doc, err := grammar.Parse(ctx, name, src, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
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
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// report prints diagnostics to stderr and returns the exit code they imply.
func report(e *env, name string, diags []*ast.Diagnostic) int {
	code := exitOK
	for _, d := range diags {
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
