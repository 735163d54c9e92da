package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/plangram/plangram/lsp"
	"github.com/plangram/plangram/workspace"
)

const lspUsage = "[--dialect auto|acts|plan|search-replace|udiff|apply-patch|tools] [--fence auto|backtick|tilde] [--schema FILE] [--root DIR] [--no-workspace] [--debounce DURATION] [--log FILE]"

// cmdLSP runs the language server on the command's standard input and
// output (docs/editors.md). It exits 0 after the client's shutdown and
// exit, 1 after an exit without shutdown (as the protocol asks), 2 on a
// usage or connection error.
func cmdLSP(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "lsp", lspUsage)
	pf := addParserFlags(fs)
	root := fs.String("root", "", "project directory for the workspace rules (default: the editor's workspace folder)")
	noWorkspace := fs.Bool("no-workspace", false, "run the parser's rules only, not the workspace rules")
	debounce := fs.Duration("debounce", 150*time.Millisecond, "wait this long after a change before checking")
	logFile := fs.String("log", "", "append the server's log to this file")
	if code, ok := parseNoArgs(e, fs, args); !ok {
		return code
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
	opts := lsp.Options{
		Parse:       popts,
		Root:        *root,
		NoWorkspace: *noWorkspace,
		Debounce:    *debounce,
		Fix:         lsp.DefaultFix(popts.Dialect),
		Version:     readVersion().Short(),
	}
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return usageError(e, err)
		}
		defer f.Close()
		opts.Logger = slog.New(slog.NewTextHandler(f, nil))
	}
	err := lsp.Serve(ctx, stdio{e.stdin, e.stdout}, opts)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, lsp.ErrExitWithoutShutdown):
		return exitError
	}
	fmt.Fprintf(e.stderr, "plangram lsp: %v\n", err)
	return exitUsage
}

// stdio joins the command's input and output into the connection the server
// reads and writes.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes the input and the output where they can be closed, which
// ends the server's read loop.
func (s stdio) Close() error {
	var errs []error
	for _, x := range []any{s.Reader, s.Writer} {
		if c, ok := x.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}
