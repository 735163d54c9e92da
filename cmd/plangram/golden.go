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
	"github.com/plangram/plangram/internal/safewrite"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/plangramtest/golden"
	"github.com/plangram/plangram/stream"
)

const (
	testUsage = "[--update] [--dialect NAME] [--fence auto|backtick|tilde] [--schema FILE] [--syntax NAME] [--format text|json] DIR..."
	diffUsage = "[--dialect NAME] [--fence auto|backtick|tilde] [--schema FILE] [--syntax NAME] [--format text|json] OLD NEW"
)

// goldenFlags are the flags of test and diff: how inputs are read, and
// the output format.
type goldenFlags struct {
	pf             parserFlags
	syntax, format *string
}

func addGoldenFlags(fs *flag.FlagSet) goldenFlags {
	return goldenFlags{
		pf:     addParserFlags(fs),
		syntax: fs.String("syntax", "", "stream syntax of the transcripts (*.txt, *.sse): "+strings.Join(stream.SyntaxNames(), ", ")+" (default auto)"),
		format: fs.String("format", "text", "output: text or json"),
	}
}

// goldenReader turns a file into its golden: a golden file as it is, a
// stream transcript (*.txt, *.sse) through the stream parser, anything
// else through grammar.Parse.
type goldenReader struct {
	opts  grammar.Options
	sopts stream.Options
}

func (f goldenFlags) reader(e *env) (*goldenReader, bool) {
	opts, ok := f.pf.options(e)
	if !ok {
		return nil, false
	}
	if err := oneOf("format", *f.format, "text", "json"); err != nil {
		usageError(e, err)
		return nil, false
	}
	if *f.syntax != "" && !slices.Contains(stream.SyntaxNames(), *f.syntax) {
		usageError(e, fmt.Errorf("unknown --syntax %q (want one of %s)", *f.syntax, strings.Join(stream.SyntaxNames(), ", ")))
		return nil, false
	}
	r := &goldenReader{opts: opts, sopts: stream.Options{Syntax: *f.syntax, Schema: opts.Schema}}
	if r.sopts.Syntax == "" {
		r.sopts.Syntax = defaultSyntax(opts.Schema)
	}
	return r, true
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
		return nil, fmt.Errorf("%s: not a regular file (%s): not read", path, st.Mode().Type())
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
	gf := addGoldenFlags(fset)
	pos, err := parseFlags(fset, args)
	if err != nil {
		return exitUsage
	}
	r, ok := gf.reader(e)
	if !ok {
		return exitUsage
	}
	if len(pos) == 0 || slices.Contains(pos, lint.Stdin) {
		return usageError(e, fmt.Errorf("test takes one or more DIR (or files), not standard input"))
	}
	var results []testResult
	code, changed := exitOK, 0
	fail := func(res testResult, err error) {
		res.Status, res.Error = "error", err.Error()
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		results, code = append(results, res), exitUsage
	}
	for _, dir := range pos {
		// Directories are walked without following symbolic links, so a
		// link loop cannot make the walk endless; an unreadable directory
		// is one error and the walk goes on.
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			res := testResult{File: p}
			switch {
			case err != nil:
				fail(res, err)
				return nil
			case d.IsDir():
				if p != dir && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			case d.Type()&fs.ModeSymlink != 0 && !isTestInput(p):
				if st, err := os.Stat(p); err == nil && st.IsDir() {
					fail(res, fmt.Errorf("%s: a symbolic link to a directory: not followed", p))
				}
				return nil
			case !isTestInput(p) && p != dir:
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			src, err := readRegular(p)
			if err != nil {
				fail(res, err)
				return nil
			}
			g, err := r.read(ctx, p, src)
			if err != nil {
				fail(res, fmt.Errorf("%s: %w", p, err))
				return nil
			}
			data := g.Marshal()
			gp := p + ".golden"
			old, err := readRegular(gp)
			switch {
			case *update && (err == nil || errors.Is(err, fs.ErrNotExist)):
				res.Status = "ok"
				if string(old) != string(data) || err != nil {
					if err := safewrite.WriteFile(gp, data); err != nil {
						fail(res, fmt.Errorf("%s: %w", p, err))
						return nil
					}
					res.Status = "updated"
					changed++
				}
			case errors.Is(err, fs.ErrNotExist):
				res.Status, res.Error = "missing", fmt.Sprintf("%s: no golden file %s: run plangram test --update to write it", p, gp)
				fmt.Fprintf(e.stderr, "plangram: %s\n", res.Error)
				code, changed = max(code, exitError), changed+1
			case err != nil:
				fail(res, err)
				return nil
			default:
				want, err := golden.Unmarshal(old)
				if err != nil {
					fail(res, fmt.Errorf("%s: %w", gp, err))
					return nil
				}
				res.Status, res.Changes = "ok", golden.Diff(want, g)
				if len(res.Changes) > 0 {
					res.Status, code, changed = "changed", max(code, exitError), changed+1
				}
			}
			results = append(results, res)
			return nil
		})
		if err != nil {
			return usageError(e, err)
		}
	}
	if *gf.format == "json" {
		out, _ := ast.JSON(map[string]any{"files": results, "changed": changed})
		e.stdout.Write(out)
		return code
	}
	for _, res := range results {
		if res.Status == "changed" || res.Status == "updated" {
			fmt.Fprintf(e.stdout, "%s: %s\n%s", res.File, res.Status, golden.Text(res.Changes))
		}
	}
	fmt.Fprintf(e.stdout, "%d files, %d changed\n", len(results), changed)
	return code
}

// cmdDiff prints the semantic difference of two documents, transcripts or
// goldens: exit 0 when equal, 1 when they differ.
func cmdDiff(ctx context.Context, e *env, args []string) int {
	fset := newFlags(e, "diff", diffUsage)
	gf := addGoldenFlags(fset)
	pos, err := parseFlags(fset, args)
	if err != nil {
		return exitUsage
	}
	r, ok := gf.reader(e)
	if !ok {
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
	if *gf.format == "json" {
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
