package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/safewrite"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/render"
	"github.com/plangram/plangram/workspace"
)

const renderUsage = "[--dialect auto|acts|plan|search-replace|udiff|apply-patch|tools|markdown] [--fence auto|backtick|tilde] [--schema FILE] [--root DIR] [--no-highlight] [-o OUT.html|-o DIR] [--include GLOB] [PATH...|-]"

// cmdRender writes a self-contained HTML preview of a plan (docs/render.md).
// One input (a file, or standard input without PATH or with "-") writes its
// page to standard output or the -o file; several inputs (or a directory)
// need -o DIR and write one page per input there (inputs.outputPath),
// creating DIR and its subdirectories. Diagnostics print to stderr.
func cmdRender(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "render", renderUsage)
	pf := addParserFlags(fs, "markdown")
	fs.Lookup("dialect").Usage += " (markdown: a plain page)"
	root := fs.String("root", "", "project directory: each card shows the diff of what its action does there, and the workspace rules' diagnostics (docs/render.md)")
	noHighlight := fs.Bool("no-highlight", false, "show code without syntax colours")
	out := fs.String("o", "", "write the page to this file (default: standard output); with several inputs, the directory to write the pages to")
	include := addIncludeFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	popts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	if *root != "" {
		if err := workspace.ValidateRoot(*root); err != nil {
			return usageError(e, err)
		}
	}
	ins, err := expandInputs(pos, *include...)
	if err != nil {
		return usageError(e, err)
	}
	multi := len(ins) > 1 || len(pos) > 0 && len(ins) == 1 && ins[0].base != ""
	if fi, err := os.Stat(*out); err == nil && fi.IsDir() && *out != "-" {
		// -o naming an existing directory writes the page into it, for
		// one input as for several.
		multi = true
	}
	targets := make([]string, len(ins))
	if multi {
		if *out == "" || *out == "-" {
			return usageError(e, errors.New("render of several inputs needs -o DIR (one page per input)"))
		}
		seen := map[string]string{}
		for i, in := range ins {
			targets[i] = in.outputPath(*out)
			if prev, dup := seen[targets[i]]; dup {
				return usageError(e, fmt.Errorf("render: %s and %s would both be written to %s", prev, in.name, targets[i]))
			}
			seen[targets[i]] = in.name
		}
	} else if len(ins) == 1 && *out != "-" {
		targets[0] = *out
	}
	return eachInput(ctx, e, ins, !multi, func(e *env, i int, in input, src []byte) (int, error) {
		page, err := renderPage(ctx, e, in, src, popts, *root, *noHighlight)
		if err != nil {
			return usageError(e, fmt.Errorf("%s: %w", in.name, err)), nil
		}
		if targets[i] == "" {
			// The page is written as it is rendered (render.WriteHTML): its
			// HTML is many times the size of a plan of small actions.
			bw := bufio.NewWriterSize(e.stdout, 64<<10)
			c, err := page(bw)
			if ferr := bw.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return 0, fmt.Errorf("%s: %w", in.name, err)
			}
			return c, nil
		}
		if multi {
			if err := os.MkdirAll(filepath.Dir(targets[i]), 0o755); err != nil {
				return 0, err
			}
		}
		code := exitOK
		if err := safewrite.WriteFileFunc(targets[i], func(w io.Writer) error {
			c, err := page(w)
			code = max(code, c)
			return err
		}); err != nil {
			code = usageError(e, err)
		}
		return code, nil
	})
}

// renderPage returns the function that writes the page of one input
// and prints its diagnostics, returning the exit code they make. The
// document is parsed once, here. With a root (--root) the document is
// checked as `check --root` checks it (lint.Source: the workspace rules'
// diagnostics with the parser's), whole, and each card shows its action's
// step in the workspace.
func renderPage(ctx context.Context, e *env, in input, src []byte, popts grammar.Options, root string, noHighlight bool) (func(io.Writer) (int, error), error) {
	ropts := render.Options{NoHighlight: noHighlight, Schema: popts.Schema, Filename: in.name, Title: filepath.Base(in.name)}
	if in.stdin() {
		ropts.Title = ""
	}
	// In auto mode a document without an act block that Markdown readers
	// would see (a README, a page about acts) renders as a plain page —
	// but only when the acts parser, which check and apply use, reads no
	// action and has nothing to say either: a page must never hide what
	// apply would do (an act block that Markdown readers see as an
	// example, or inside an HTML comment).
	d := grammar.FileDialect(in.name, popts.Dialect)
	var doc *ast.Document
	if d == "auto" {
		if d = grammar.Detect(src); d == grammar.DialectActs && popts.Fence == 0 && !render.HasActBlocks(src) {
			popts.Dialect = d
			parsed, err := grammar.Parse(ctx, in.name, src, popts)
			if err != nil {
				return nil, err
			}
			if len(parsed.Actions) == 0 && len(onlyErrors(parsed.Diagnostics, true)) == 0 {
				d = "markdown"
			}
			doc = parsed
		}
	}
	if d == "markdown" {
		return func(w io.Writer) (int, error) {
			return exitOK, render.WriteMarkdown(w, src, ropts)
		}, nil
	}
	popts.Dialect = d
	var err error
	switch {
	case root != "":
		var diags []*ast.Diagnostic
		if doc, diags, err = lint.Source(ctx, in.name, src, lint.Options{Parse: popts, Root: root}); err != nil {
			return nil, err
		}
		doc.Diagnostics = diags
		ropts.Workspace = &render.Workspace{Root: root, Context: ctx}
	case doc == nil:
		if doc, err = grammar.Parse(ctx, in.name, src, popts); err != nil {
			return nil, err
		}
		fallthrough
	default:
		doc.Diagnostics = lint.Suppress(doc, src, doc.Diagnostics, nil)
	}
	code := printDiags(e, in.name, doc.Diagnostics)
	return func(w io.Writer) (int, error) {
		return code, render.WriteHTML(w, doc, src, ropts)
	}, nil
}
