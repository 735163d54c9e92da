package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/plangram/plangram/lint"
)

// input is one document a command reads: a file, or standard input.
type input struct {
	// path is the file's path as given or found, or "-" for standard input.
	path string
	// name is what diagnostics and listings print: path, or "<stdin>".
	name string
	// base is the directory argument path was found under ("" for a file
	// or standard input named directly); render -o DIR mirrors the tree
	// below it.
	base string
}

func (in input) stdin() bool { return in.path == lint.Stdin }

// expandInputs is the one input layer of every command that reads plans
// (parse, check, fmt, fix, render, apply): no argument or "-" is standard
// input (named "<stdin>"); a file stands for itself; a directory for every
// `*.md`, `*.markdown`, `*.diff` and `*.patch` file below it (any case),
// and every file matching an include glob (`--include GLOB`; none at all
// is an error), recursively in lexical order, skipping directories whose
// name starts with a dot and not following symbolic links (lint.Expand). A
// file named twice is read once. A path that does not exist is an error
// (exit 2) before anything is read.
func expandInputs(args []string, include ...string) ([]input, error) {
	if len(args) == 0 {
		args = []string{lint.Stdin}
	}
	var out []input
	seen := map[string]bool{}
	for _, a := range args {
		files, err := lint.Expand([]string{a}, include...)
		if err != nil {
			return nil, err
		}
		base := ""
		if st, err := os.Stat(a); err == nil && st.IsDir() && a != lint.Stdin {
			base = a
		}
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			in := input{path: f, name: f, base: base}
			if in.stdin() {
				in.name = lint.StdinName
			}
			out = append(out, in)
		}
	}
	return out, nil
}

// stdinOnce returns the reader of standard input r for one command run: it
// reads r at most once, so that "-" named twice (or a command that reads it
// for several purposes) sees the same bytes.
func stdinOnce(r io.Reader) func() ([]byte, error) {
	return sync.OnceValues(func() ([]byte, error) {
		if r == nil {
			return nil, fmt.Errorf("no standard input to read")
		}
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return data, nil
	})
}

// eachInput reads the inputs in turn, advancing a progress counter
// (newProgress; streamsStdout as there), and gives each one's bytes to f
// with the env to write through, which returns the input's exit code, or
// an error that ends the run as a usage error. An input that cannot be
// read is reported and counts as exitUsage; cancellation ends the run as a
// usage error. It returns the worst exit code.
func eachInput(ctx context.Context, e *env, ins []input, streamsStdout bool, f func(e *env, i int, in input, src []byte) (int, error)) int {
	pr, e := newProgress(e, len(ins), streamsStdout)
	defer pr.end()
	stdin := stdinOnce(e.stdin)
	code := exitOK
	for i, in := range ins {
		if err := ctx.Err(); err != nil {
			return usageError(e, err)
		}
		pr.step(i + 1)
		src, err := in.read(stdin)
		if err != nil {
			code = usageError(e, err)
			continue
		}
		c, err := f(e, i, in, src)
		if err != nil {
			return usageError(e, err)
		}
		code = max(code, c)
	}
	return code
}

// read returns the input's bytes, reading standard input with stdin.
func (in input) read(stdin func() ([]byte, error)) ([]byte, error) {
	if in.stdin() {
		return stdin()
	}
	return os.ReadFile(in.path)
}

// outputPath is where render -o DIR writes the page of in: the path below
// the directory argument it was found under, or the file's base name for a
// file named directly ("stdin" for standard input), with .md (or
// .markdown, any case) replaced by .html.
func (in input) outputPath(dir string) string {
	rel := filepath.Base(in.path)
	switch {
	case in.stdin():
		rel = "stdin"
	case in.base != "":
		if r, err := filepath.Rel(in.base, in.path); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
	}
	if ext := filepath.Ext(rel); lint.IsMarkdownName(rel) {
		rel = rel[:len(rel)-len(ext)]
	}
	return filepath.Join(dir, rel+".html")
}

// addIncludeFlag defines --include GLOB (repeatable) on fs: the files below
// a directory argument whose name matches GLOB are read too, beside the
// Markdown and diff files (lint.Expand).
func addIncludeFlag(fs *flag.FlagSet) *[]string {
	var globs []string
	fs.Func("include", "also read the files below a directory argument whose name (or path below it) matches `GLOB`, beside *.md, *.markdown, *.diff and *.patch; repeatable", func(g string) error {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("bad glob %q: %w", g, err)
		}
		globs = append(globs, g)
		return nil
	})
	return &globs
}
