package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/internal/safewrite"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/plangramtest/golden"
	"github.com/plangram/plangram/stream"
)

const (
	testUsage = "[--update] [--dialect NAME] [--fence auto|backtick|tilde] [--schema FILE] [--syntax NAME] [--format text|json] DIR..."
	diffUsage = "[--dialect NAME] [--fence auto|backtick|tilde] [--schema FILE] [--syntax NAME] [--format text|json] OLD NEW"
)

// goldenReader turns a file into its golden (test and diff): a golden
// file as it is, a stream transcript (*.txt, *.sse) through the stream
// parser, anything else through grammar.Parse.
type goldenReader struct {
	opts   grammar.Options
	sopts  stream.Options
	format string // --format
}

// parseGolden defines the flags test and diff share on fs (after the
// command's own), parses args and checks them; on a bad value it reports
// it and returns nil.
func parseGolden(e *env, fs *flag.FlagSet, args []string) (*goldenReader, []string) {
	pf := addParserFlags(fs)
	names := strings.Join(stream.SyntaxNames(), ", ")
	syntax := fs.String("syntax", "", "stream syntax of the transcripts (*.txt, *.sse): "+names+" (default auto)")
	format := fs.String("format", "text", "output: text or json")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, nil
	}
	opts, ok := pf.options(e)
	if err = oneOf("format", *format, "text", "json"); err == nil && *syntax != "" && !slices.Contains(stream.SyntaxNames(), *syntax) {
		err = fmt.Errorf("unknown --syntax %q (want one of %s)", *syntax, names)
	}
	if !ok || err != nil {
		if err != nil {
			usageError(e, err)
		}
		return nil, nil
	}
	if *syntax == "" {
		*syntax = defaultSyntax(opts.Schema)
	}
	return &goldenReader{opts, stream.Options{Syntax: *syntax, Schema: opts.Schema}, *format}, pos
}

func (r *goldenReader) read(ctx context.Context, name string, src []byte) (*golden.Golden, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".golden":
		return golden.Unmarshal(src)
	case ".txt", ".sse":
		return golden.FromStream(r.sopts, src)
	}
	opts := r.opts
	opts.Dialect = grammar.FileDialect(name, opts.Dialect)
	doc, err := grammar.Parse(ctx, name, src, opts)
	if err != nil {
		return nil, err
	}
	return golden.FromDocument(doc), nil
}

// isTestInput reports whether test reads a file found below DIR: a plan
// or edit-format reply (lint.IsPlanName) or a stream transcript.
func isTestInput(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return lint.IsPlanName(name) || ext == ".txt" || ext == ".sse"
}

// readRegular reads path if it is a regular file, not a symbolic link,
// named pipe or device (reading a pipe could wait for ever, and a golden
// written through a link could land outside DIR). A missing file's error
// wraps fs.ErrNotExist.
func readRegular(path string) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (a symbolic link, named pipe or device): not read", path)
	}
	return os.ReadFile(path)
}

// testResult is what test found for one input.
type testResult struct {
	File    string          `json:"file"`
	Status  string          `json:"status"` // ok, changed, missing, updated or error
	Changes []golden.Change `json:"changes,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// cmdTest compares every input below the DIRs with its golden file
// (NAME.golden beside it), or with --update writes the goldens
// (docs/testing.md).
func cmdTest(ctx context.Context, e *env, args []string) int {
	fset := newFlags(e, "test", testUsage)
	update := fset.Bool("update", false, "write the golden files (NAME.golden beside each input, atomically) instead of comparing with them")
	r, pos := parseGolden(e, fset, args)
	if r == nil {
		return exitUsage
	}
	if len(pos) == 0 || slices.Contains(pos, lint.Stdin) {
		return usageError(e, fmt.Errorf("test takes one or more DIR (or files), not standard input"))
	}
	var results []testResult
	code, changed := exitOK, 0
	for _, dir := range pos {
		// Directories are walked without following symbolic links, so a
		// link loop cannot make the walk endless; an unreadable directory
		// is one error and the walk goes on.
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err == nil && d.IsDir() && p != dir && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			case err == nil && d.IsDir():
				return nil
			case err == nil && !isTestInput(p) && p != dir:
				if st, serr := os.Stat(p); d.Type()&fs.ModeSymlink == 0 || serr != nil || !st.IsDir() {
					return nil
				}
				err = fmt.Errorf("%s: a symbolic link to a directory: not followed", p)
			}
			res := testResult{File: p}
			if err == nil {
				res, err = r.test(ctx, p, *update)
			}
			switch {
			case err != nil:
				res.Status, res.Error, code = "error", err.Error(), exitUsage
			case res.Status == "ok":
			case res.Status != "updated":
				code = max(code, exitError)
				fallthrough
			default:
				changed++
			}
			if res.Error != "" {
				fmt.Fprintf(e.stderr, "plangram: %s\n", res.Error)
			}
			results = append(results, res)
			return ctx.Err()
		})
		if err != nil {
			return usageError(e, err)
		}
	}
	if len(results) == 0 { // checking nothing must not pass as a clean run
		return usageError(e, fmt.Errorf("no reply (*.md, *.markdown, *.diff, *.patch, *.txt, *.sse) below %s: nothing to test", strings.Join(pos, ", ")))
	}
	if r.format == "json" {
		out, _ := ast.JSON(map[string]any{"files": results, "changed": changed})
		e.stdout.Write(out)
		return code
	}
	for _, res := range results {
		if res.Status == "changed" || res.Status == "updated" {
			fmt.Fprintf(e.stdout, "%s: %s\n%s", res.File, res.Status, golden.Text(res.Changes))
		}
	}
	fmt.Fprintf(e.stdout, "%s, %d changed\n", number.Plural(len(results), "file"), changed)
	return code
}

// test compares the input p with its golden (NAME.golden beside it), or
// with update writes the golden when it differs. It returns an error for
// an input or a golden that cannot be read or written.
func (r *goldenReader) test(ctx context.Context, p string, update bool) (testResult, error) {
	res := testResult{File: p, Status: "ok"}
	src, err := readRegular(p)
	if err != nil {
		return res, err
	}
	g, err := r.read(ctx, p, src)
	if err != nil {
		return res, fmt.Errorf("%s: %w", p, err)
	}
	gp := p + ".golden"
	old, err := readRegular(gp)
	missing := errors.Is(err, fs.ErrNotExist)
	switch {
	case err != nil && !missing:
		return res, err
	case update:
		if data := g.Marshal(); missing || string(old) != string(data) {
			res.Status, err = "updated", safewrite.WriteFile(gp, data)
		}
	case missing:
		res.Status, res.Error, err = "missing", fmt.Sprintf("%s: no golden file %s: run plangram test --update to write it", p, gp), nil
	default:
		want, err := golden.Unmarshal(old)
		if err != nil {
			return res, fmt.Errorf("%s: %w", gp, err)
		}
		if res.Changes = golden.Diff(want, g); len(res.Changes) > 0 {
			res.Status = "changed"
		}
	}
	return res, err
}

// cmdDiff prints the semantic difference of two documents, transcripts or
// goldens: exit 0 when equal, 1 when they differ.
func cmdDiff(ctx context.Context, e *env, args []string) int {
	fset := newFlags(e, "diff", diffUsage)
	r, pos := parseGolden(e, fset, args)
	if r == nil {
		return exitUsage
	}
	if len(pos) != 2 || slices.Contains(pos, lint.Stdin) {
		return usageError(e, fmt.Errorf("diff takes two files, OLD and NEW"))
	}
	var gs [2]*golden.Golden
	for i, p := range pos {
		src, err := os.ReadFile(p)
		if err == nil {
			gs[i], err = r.read(ctx, p, src)
		}
		if err != nil {
			return usageError(e, fmt.Errorf("%s: %w", p, err))
		}
	}
	changes := append([]golden.Change{}, golden.Diff(gs[0], gs[1])...)
	if r.format == "json" {
		out, _ := ast.JSON(map[string]any{"old": pos[0], "new": pos[1], "changes": changes})
		e.stdout.Write(out)
	} else {
		fmt.Fprint(e.stdout, golden.Text(changes))
	}
	if len(changes) > 0 {
		return exitError
	}
	return exitOK
}
