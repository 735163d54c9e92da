// Package lint is the engine of `plangram check` and of the language
// server: it parses documents, runs the workspace rules when a root is
// given, and checks many files in parallel while returning them in a stable
// order. Package report prints the result.
package lint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/report"
	"github.com/plangram/plangram/workspace"
)

// Options configures a check.
type Options struct {
	// Parse configures the parser (dialect, fence, schema).
	Parse grammar.Options
	// Root, when set, is the project directory the workspace rules check
	// paths and FIND texts against; empty runs the parser's rules only.
	Root string
	// Workspace configures the workspace rules. Its Schema defaults to
	// Parse.Schema.
	Workspace workspace.Options
	// Jobs is the number of files checked at once (0: GOMAXPROCS).
	Jobs int
	// Stdin is read for the path "-".
	Stdin io.Reader
	// Disable lists diagnostic codes left out of the result (`check
	// --disable`); directive comments in a plan silence codes too
	// (Suppress).
	Disable []string
	// Include adds the files below a directory argument whose name matches
	// one of these globs (Expand; `--include GLOB`).
	Include []string
	// QuietNoPlan leaves the no-plan note out of Run's result when the
	// dialect is auto: a Markdown file with no plan is ordinary Markdown
	// (`plangram check`); with an explicit dialect it is kept.
	QuietNoPlan bool
	// Progress, when set, is called after each file of Run with the number
	// of files done and the total (from the checking goroutines, one call
	// at a time).
	Progress func(done, total int)
}

// Stdin is the path that names standard input, and StdinName the name its
// diagnostics are printed under.
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

// Source checks one document: it parses src and, with opts.Root set, runs
// the workspace rules. It returns the document and all diagnostics, sorted
// by position. The error is for cancellation and unusable options only.
//
// What the directive comments and opts.Disable silence is dropped before
// the parser and the rules count their diagnostics against the cap of
// MaxPerCode a code (grammar.Options.Silenced): otherwise a silenced range
// could hold the first 100 of a code and the diagnostic that sums up the
// rest, and the rest would be lost with them. The directives are read
// outside fenced blocks, so a document that holds one is parsed first for
// its blocks' spans, and again only when something is silenced: src is
// parsed at most twice.
func Source(ctx context.Context, name string, src []byte, opts Options) (*ast.Document, []*ast.Diagnostic, error) {
	var doc *ast.Document
	if hasDirective(src) {
		var err error
		if doc, err = grammar.Parse(ctx, name, src, opts.Parse); err != nil {
			return nil, nil, err
		}
	}
	sup := newSuppressor(doc, src, opts.Disable)
	pred := sup.predicate()
	if doc == nil || pred != nil {
		popts := opts.Parse
		popts.Silenced = pred
		var err error
		if doc, err = grammar.Parse(ctx, name, src, popts); err != nil {
			return nil, nil, err
		}
	}
	diags := append([]*ast.Diagnostic{}, doc.Diagnostics...)
	diags = append(diags, workspace.DocCaseCollisions(doc, opts.Parse.Schema, opts.Root, pred)...)
	if opts.Root != "" {
		wo := opts.Workspace
		if wo.Schema == nil {
			wo.Schema = opts.Parse.Schema
		}
		if wo.Source == nil {
			wo.Source = src // the overlay keeps offsets into it
		}
		wo.Silenced = pred
		diags = append(diags, workspace.Check(ctx, doc, opts.Root, wo)...)
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	ast.SortDiagnostics(diags)
	return doc, sup.apply(diags), nil
}

// Expand turns command-line PATH arguments into the files to check: a file
// stands for itself, "-" for standard input, and a directory for every plan
// file below it (IsPlanName: `*.md`, `*.markdown`, `*.diff`, `*.patch`, any
// case) and every file whose name matches one of the include globs
// (path.Match, against the file's base name or its slash-separated path
// below the directory argument); recursively, in lexical order, not
// following symbolic links, skipping directories whose name starts with a
// dot. The arguments keep their order; a file named twice is checked once.
// A directory with no such file below it is an error (ErrNoMarkdown):
// checking nothing must not pass as a clean check. A malformed glob is an
// error too.
func Expand(paths []string, include ...string) ([]string, error) {
	for _, g := range include {
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("--include %q: %w", g, err)
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		if p == Stdin {
			add(p)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		found := false
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if q != p && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && (IsPlanName(d.Name()) || included(p, q, include)) {
				add(q)
				found = true
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("%s: %w", p, ErrNoMarkdown)
		}
	}
	return out, nil
}

// ErrNoMarkdown is the error of Expand for a directory argument that holds
// no Markdown file below it.
var ErrNoMarkdown = errors.New("no plan file (*.md, *.markdown, *.diff, *.patch, or --include GLOB) below this directory, outside directories starting with a dot: nothing to read")

// IsPlanName reports whether a directory argument reads a file by its
// name: a Markdown file (IsMarkdownName) or a diff (`*.diff`, `*.patch`),
// in any letter case.
func IsPlanName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".diff", ".patch":
		return true
	}
	return IsMarkdownName(name)
}

// included reports whether file q, found below directory dir, matches one
// of the globs: by its base name or its slash path relative to dir.
func included(dir, q string, globs []string) bool {
	if len(globs) == 0 {
		return false
	}
	rel, err := filepath.Rel(dir, q)
	if err != nil {
		rel = q
	}
	rel = filepath.ToSlash(rel)
	for _, g := range globs {
		base, _ := path.Match(g, filepath.Base(q))
		if whole, _ := path.Match(g, rel); base || whole {
			return true
		}
	}
	return false
}

// IsMarkdownName reports whether a file name is a Markdown file's, as a
// directory argument expands: it ends in `.md` or `.markdown`, in any
// letter case (`README.MD`).
func IsMarkdownName(name string) bool {
	n := len(name)
	return n > 3 && strings.EqualFold(name[n-3:], ".md") || n > 9 && strings.EqualFold(name[n-9:], ".markdown")
}

// Run checks the files of paths (see Expand) in parallel and returns them in
// the expanded order, whatever order the checks finish in. Files that cannot
// be read are left out and their errors joined into the returned error (the
// CLI's exit code 2); the other files are still returned. Cancellation stops
// the remaining checks and returns ctx's error.
func Run(ctx context.Context, paths []string, opts Options) ([]*report.File, error) {
	files, err := Expand(paths, opts.Include...)
	if err != nil {
		return nil, err
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]*report.File, len(files))
	errs := make([]error, len(files))
	// Standard input is read here, once, before the workers start.
	var stdin []byte
	for _, f := range files {
		if f == Stdin {
			if opts.Stdin == nil {
				return nil, errors.New("no standard input to read")
			}
			if stdin, err = io.ReadAll(opts.Stdin); err != nil {
				return nil, fmt.Errorf("reading standard input: %w", err)
			}
		}
	}
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < min(jobs, len(files)); w++ {
		wg.Go(func() {
			for i := range work {
				results[i], errs[i] = checkFile(ctx, files[i], stdin, opts)
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, len(files))
					mu.Unlock()
				}
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(results, func(r *report.File) bool { return r == nil }), errors.Join(errs...)
}

func checkFile(ctx context.Context, path string, stdin []byte, opts Options) (*report.File, error) {
	name, src := path, stdin
	if path == Stdin {
		name = StdinName
	} else {
		var err error
		if src, err = os.ReadFile(path); err != nil {
			return nil, err
		}
	}
	auto := opts.Parse.Dialect == "" || opts.Parse.Dialect == grammar.DialectAuto
	opts.Parse.Dialect = grammar.FileDialect(name, opts.Parse.Dialect)
	_, diags, err := Source(ctx, name, src, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if opts.QuietNoPlan && auto {
		diags = DropNoPlan(diags)
	}
	return &report.File{Path: name, Source: src, Diagnostics: diags}, nil
}

// DropNoPlan returns diags without the no-plan note (grammar.CodeNoPlan),
// for output under `--dialect auto`, where a document with no plan is
// ordinary Markdown. It reuses diags' array.
func DropNoPlan(diags []*ast.Diagnostic) []*ast.Diagnostic {
	return slices.DeleteFunc(diags, func(d *ast.Diagnostic) bool { return d.Code == grammar.CodeNoPlan })
}
