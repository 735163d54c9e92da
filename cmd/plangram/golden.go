package main

import (
	"bytes"
	"cmp"
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

// goldenReader turns a file into its golden for test and diff: a golden
// file as it is, a stream transcript (*.txt, *.sse) through the stream
// parser, anything else through grammar.Parse.
type goldenReader struct {
	opts   grammar.Options
	syntax string // --syntax, for the transcripts
	json   bool   // --format json
}

// parseGolden defines the flags test and diff share on fs (after the
// command's own) and parses args; on a bad value it reports it and
// returns nil.
func parseGolden(e *env, fs *flag.FlagSet, args []string) (*goldenReader, []string) {
	pf := addParserFlags(fs)
	syntax := fs.String("syntax", "", "stream syntax of the transcripts (*.txt, *.sse): "+strings.Join(stream.SyntaxNames(), ", ")+" (default auto)")
	format := fs.String("format", "text", "output: text or json")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, nil
	}
	opts, ok := pf.options(e)
	if err = errors.Join(oneOf("format", *format, "text", "json"), oneOf("syntax", cmp.Or(*syntax, stream.Auto), stream.SyntaxNames()...)); !ok || err != nil {
		if err != nil {
			usageError(e, err)
		}
		return nil, nil
	}
	return &goldenReader{opts, cmp.Or(*syntax, defaultSyntax(opts.Schema)), *format == "json"}, pos
}

// read returns the golden of the file name holding src, as bytes and
// parsed; its error names the file.
func (r *goldenReader) read(ctx context.Context, name string, src []byte) ([]byte, *golden.Golden, error) {
	data := src // a golden file
	var err error
	switch strings.ToLower(filepath.Ext(name)) {
	case ".golden":
	case ".txt", ".sse":
		data, err = golden.Stream(stream.Options{Syntax: r.syntax, Schema: r.opts.Schema}, string(src))
	default:
		opts := r.opts
		opts.Dialect = grammar.FileDialect(name, opts.Dialect)
		var doc *ast.Document
		if doc, err = grammar.Parse(ctx, name, src, opts); err == nil {
			data = golden.Document(doc)
		}
	}
	var g *golden.Golden
	if err == nil {
		g, err = golden.Parse(data)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, g, nil
}

// print writes text, or with --format json v as JSON, to standard output.
func (r *goldenReader) print(e *env, text string, v any) int {
	if r.json {
		out, err := ast.JSON(v)
		return writeOutput(e, "", out, err)
	}
	return writeOutput(e, "", []byte(text), nil)
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
	fset := newFlags(e, "test", "[--update] [--dialect NAME] [--fence auto|backtick|tilde] [--schema FILE] [--syntax NAME] [--format text|json] DIR...")
	update := fset.Bool("update", false, "write the golden files (NAME.golden beside each input, atomically) instead of comparing with them")
	r, pos := parseGolden(e, fset, args)
	if r == nil {
		return exitUsage
	}
	if len(pos) == 0 || slices.Contains(pos, lint.Stdin) {
		return usageError(e, fmt.Errorf("test takes one or more DIR (or files), not standard input"))
	}
	var results []testResult
	var text strings.Builder
	code, changed := exitOK, 0
	for _, dir := range pos {
		// The walk follows no symbolic link, so a link loop cannot make
		// it endless; an unreadable directory is one error and it goes on.
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				if p != dir && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(p))
			if err == nil && p != dir && !lint.IsPlanName(p) && ext != ".txt" && ext != ".sse" {
				if d.Type()&fs.ModeSymlink == 0 {
					return nil
				} else if st, serr := os.Stat(p); serr != nil || !st.IsDir() {
					return nil
				}
				err = fmt.Errorf("%s: a symbolic link to a directory: not followed", p)
			}
			res := testResult{File: p}
			if err == nil {
				res, err = r.test(ctx, p, *update)
			}
			if err != nil {
				res.Status, res.Error = "error", err.Error()
			}
			code = max(code, map[string]int{"changed": exitError, "missing": exitError, "error": exitUsage}[res.Status])
			if res.Status != "ok" && res.Status != "error" {
				changed++
				fmt.Fprintf(&text, "%s: %s\n%s", p, res.Status, golden.Text(res.Changes))
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
	fmt.Fprintf(&text, "%s, %d changed\n", number.Plural(len(results), "file"), changed)
	return max(code, r.print(e, text.String(), map[string]any{"files": results, "changed": changed}))
}

// test compares the input p with its golden (NAME.golden beside it), or
// with update writes the golden when it differs. It returns an error for
// an input or a golden that cannot be read or written.
func (r *goldenReader) test(ctx context.Context, p string, update bool) (testResult, error) {
	res := testResult{File: p, Status: "ok"}
	src, err := readRegular(p)
	var data []byte
	var got, want *golden.Golden
	if err == nil {
		data, got, err = r.read(ctx, p, src)
	}
	if err != nil {
		return res, err
	}
	gp := p + ".golden"
	old, err := readRegular(gp)
	switch missing := errors.Is(err, fs.ErrNotExist); {
	case missing && !update:
		res.Status, res.Error, err = "missing", fmt.Sprintf("%s: no golden file %s: run plangram test --update to write it", p, gp), nil
	case err != nil && !missing:
	case update && (missing || !bytes.Equal(old, data)):
		res.Status, err = "updated", safewrite.WriteFile(gp, data)
	case !update:
		if _, want, err = r.read(ctx, gp, old); err == nil {
			res.Changes = golden.Diff(want, got)
		}
	}
	if len(res.Changes) > 0 {
		res.Status = "changed"
	}
	return res, err
}

// cmdDiff prints the semantic difference of two documents, transcripts or
// goldens: exit 0 when equal, 1 when they differ.
func cmdDiff(ctx context.Context, e *env, args []string) int {
	fset := newFlags(e, "diff", "[--dialect NAME] [--fence auto|backtick|tilde] [--schema FILE] [--syntax NAME] [--format text|json] OLD NEW")
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
			_, gs[i], err = r.read(ctx, p, src)
		}
		if err != nil {
			return usageError(e, err)
		}
	}
	changes := golden.Diff(gs[0], gs[1])
	if code := r.print(e, golden.Text(changes), map[string]any{"old": pos[0], "new": pos[1], "changes": changes}); code != exitOK || len(changes) == 0 {
		return code
	}
	return exitError
}
