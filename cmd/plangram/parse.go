package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/alecthomas/repr"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/fix"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/jsonw"
	"github.com/plangram/plangram/lint"
)

const parseUsage = "[--dialect auto|acts|plan|search-replace|udiff|apply-patch|tools] [--fence auto|backtick|tilde] [--format json|repr] [--compact] [--ndjson] [--schema FILE] [--fix] [--include GLOB] [PATH...|-]"

// cmdParse parses plans and prints their AST. One input (a file, or
// standard input without PATH or with "-") prints its document; several
// inputs (or a directory) print NDJSON: one line per input,
// {"file": NAME, "document": DOC}, in input order. Diagnostics print to
// standard error; the exit code is the worst of the inputs'.
func cmdParse(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "parse", parseUsage)
	pf := addParserFlags(fs)
	format := fs.String("format", "json", "output format: json or repr")
	compact := fs.Bool("compact", false, "print JSON on one line (default: indented; several inputs always print one line each)")
	doFix := fs.Bool("fix", false, "repair what LLMs typically break (plangram fix) in memory first; each repair is a warning")
	ndjson := fs.Bool("ndjson", false, `print one line {"file": NAME, "document": DOC} per input, however many there are (default: one input prints its document alone)`)
	include := addIncludeFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := oneOf("format", *format, "json", "repr"); err != nil {
		return usageError(e, err)
	}
	if *ndjson && *format != "json" {
		return usageError(e, fmt.Errorf("--ndjson prints JSON: it does not go with --format %s", *format))
	}
	opts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	ins, err := expandInputs(pos, *include...)
	if err != nil {
		return usageError(e, err)
	}
	// A directory argument means several documents even when it holds one;
	// --ndjson means the NDJSON lines whatever the count.
	multi := *ndjson || len(ins) > 1 || len(pos) > 0 && len(ins) == 1 && ins[0].base != ""
	// Under auto a document with no plan is ordinary Markdown: its no-plan
	// note stays in the JSON but is not printed.
	auto := opts.Dialect == "" || opts.Dialect == grammar.DialectAuto
	return eachInput(ctx, e, ins, true, func(e *env, _ int, in input, src []byte) (int, error) {
		opts := opts
		opts.Dialect = grammar.FileDialect(in.name, opts.Dialect)
		var repairs []*ast.Diagnostic
		if *doFix {
			src, repairs = fix.Apply(src, opts.Dialect)
		}
		doc, err := grammar.Parse(ctx, in.name, src, opts)
		if err != nil {
			return usageError(e, err), nil
		}
		if len(repairs) > 0 {
			doc.Diagnostics = append(repairs, doc.Diagnostics...)
			ast.SortDiagnostics(doc.Diagnostics)
		}
		doc.Diagnostics = lint.Suppress(doc, src, doc.Diagnostics, nil)
		if err := writeDoc(e, in.name, doc, *format, multi, *compact); err != nil {
			return 0, err
		}
		diags := doc.Diagnostics
		if auto { // on a copy: the document keeps its no-plan note
			diags = lint.DropNoPlan(slices.Clone(diags))
		}
		return printDiags(e, in.name, diags), nil
	})
}

// writeDoc prints the document in the chosen format; multi prints a JSON
// document as one NDJSON line {"file", "document"} and a repr dump after a
// "// FILE" line.
func writeDoc(e *env, name string, doc *ast.Document, format string, multi, compact bool) error {
	if format == "repr" {
		if multi {
			fmt.Fprintf(e.stdout, "// %s\n", name)
		}
		_, err := fmt.Fprintln(e.stdout, repr.String(doc, repr.Indent("  "), repr.OmitEmpty(true)))
		return err
	}
	if multi {
		// One NDJSON line, written directly as encoding/json would write
		// {"file": NAME, "document": DOC} (ast.WriteJSON).
		b := jsonw.AppendString([]byte(`{"file":`), name)
		b = append(b, `,"document":`...)
		b, err := ast.AppendJSON(b, doc, true)
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(append(b, "}\n"...))
		return err
	}
	// Written directly through a 64 KiB buffer, byte for byte what
	// ast.JSON returns (compact: what compactJSON makes of it).
	return ast.WriteJSON(e.stdout, doc, compact)
}

func usageError(e *env, err error) int {
	fmt.Fprintf(e.stderr, "plangram: %v\n", err)
	return exitUsage
}
