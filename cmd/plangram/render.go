package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/safewrite"
	"github.com/plangram/plangram/render"
)

const renderUsage = "[--dialect auto|acts|plan|search-replace|udiff|apply-patch|markdown] [--fence auto|backtick|tilde] [--schema FILE] [--no-highlight] [-o OUT.html] FILE|-"

// cmdRender writes a self-contained HTML preview of a plan (docs/render.md).
func cmdRender(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "render", renderUsage)
	pf := addParserFlags(fs, "input dialect: auto, acts, plan, search-replace, udiff, apply-patch or markdown (a plain page)")
	noHighlight := fs.Bool("no-highlight", false, "show code without syntax colours")
	out := fs.String("o", "", "write the page to this file (default: standard output)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := oneOf("dialect", *pf.dialect, append(append([]string{grammar.DialectAuto}, grammar.Dialects()...), "markdown")...); err != nil {
		return usageError(e, err)
	}
	if len(pos) != 1 {
		return usageError(e, fmt.Errorf("render takes one FILE (or - for stdin), got %d", len(pos)))
	}
	popts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	ropts := render.Options{NoHighlight: *noHighlight, Schema: popts.Schema}
	name, src, err := readInput(e, pos[0])
	if err != nil {
		return usageError(e, err)
	}
	ropts.Filename, ropts.Title = name, filepath.Base(name)
	if name == "<stdin>" {
		ropts.Title = ""
	}

	// In auto mode a document without an act block that Markdown readers
	// would see (a README, a page about acts) renders as a plain page.
	d := popts.Dialect
	if d == "auto" {
		if d = grammar.Detect(src); d == grammar.DialectActs && popts.Fence == 0 && !render.HasActBlocks(src) {
			d = "markdown"
		}
	}
	var page []byte
	code := exitOK
	if d == "markdown" {
		if page, err = render.Markdown(src, ropts); err != nil {
			return usageError(e, err)
		}
	} else {
		popts.Dialect = d
		doc, err := grammar.Parse(ctx, name, src, popts)
		if err != nil {
			return usageError(e, err)
		}
		if page, err = render.HTML(doc, src, ropts); err != nil {
			return usageError(e, err)
		}
		code = report(e, name, doc.Diagnostics)
	}
	if *out == "" {
		if _, err := e.stdout.Write(page); err != nil {
			return usageError(e, err)
		}
		return code
	}
	if err := safewrite.WriteFile(*out, page); err != nil {
		return usageError(e, err)
	}
	return code
}
