package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/internal/safewrite"
)

// rewriteFlags are fmt's and fix's -l, -d and -w, with gofmt's meaning.
type rewriteFlags struct {
	list, diff, write *bool
	include           *[]string
}

func addRewriteFlags(fs *flag.FlagSet, what string) rewriteFlags {
	return rewriteFlags{
		list:    fs.Bool("l", false, "list the files whose "+what+" differs (exit 1 if any) instead of printing the result"),
		diff:    fs.Bool("d", false, "print a unified diff of the changes instead of the result"),
		write:   fs.Bool("w", false, "rewrite each changed file in place, atomically, instead of printing the result"),
		include: addIncludeFlag(fs),
	}
}

// transform turns one input into its rewritten form, printing its
// diagnostics to e's standard error (which clears the progress counter
// first), and returns the exit code they imply.
type transform func(ctx context.Context, e *env, in input, src []byte) (out []byte, code int, err error)

// rewriteInputs runs fmt or fix over the inputs (files, directories, "-";
// see expandInputs). Without -l, -d or -w it prints each result in turn (as
// gofmt does); -l prints the name of each input whose result differs, -d a
// unified diff of it, -w rewrites it in place (standard input cannot be
// rewritten), unless the file changed after it was read. Under -l no
// document diagnostic is printed, only the list (and a line for an input
// that cannot be read); fix -d prints the diffs without the repairs'
// warnings. The exit code is the worst of: the transform's, 1 under -l
// when an input differs, 2 when an input cannot be read or written.
func rewriteInputs(ctx context.Context, e *env, name string, pos []string, rf rewriteFlags, t transform) int {
	ins, err := expandInputs(pos, *rf.include...)
	if err != nil {
		return usageError(e, err)
	}
	if *rf.write && slices.ContainsFunc(ins, input.stdin) {
		return usageError(e, fmt.Errorf("%s -w cannot rewrite standard input: give FILE or DIR arguments", name))
	}
	// Without -w, or with -l or -d, results go to standard output as the
	// run goes: no counter when that is the terminal too.
	return eachInput(ctx, e, ins, !*rf.write || *rf.list || *rf.diff, func(e *env, _ int, in input, src []byte) (int, error) {
		// -l prints the list and nothing else: not the document's
		// diagnostics (an AST diff a file), which `plangram check`
		// prints; they still count in the exit code. fix -d prints the
		// diffs, not each repair they show again as a warning.
		te := e
		if *rf.list || *rf.diff && name == "fix" {
			quiet := *e
			quiet.stderr = io.Discard
			te = &quiet
		}
		out, code, err := t(ctx, te, in, src)
		if err != nil {
			return usageError(e, fmt.Errorf("%s: %w", in.name, err)), nil
		}
		changed := !bytes.Equal(src, out)
		if *rf.list && changed {
			fmt.Fprintln(e.stdout, in.name)
			code = max(code, exitError)
		}
		if *rf.diff && changed {
			if err := linediff.Unified(e.stdout, in.name+".orig", in.name, src, out, 3); err != nil {
				return 0, err
			}
		}
		if *rf.write && changed {
			// The file must still be what was read: an edit made in
			// between is not overwritten (safewrite.Rewrite).
			var hook func()
			if e.beforeRename != nil {
				hook = func() { e.beforeRename(in.path) }
			}
			if err := safewrite.Rewrite(in.path, src, out, hook); err != nil {
				code = usageError(e, err)
			}
		}
		if !*rf.list && !*rf.diff && !*rf.write {
			if _, err := e.stdout.Write(out); err != nil {
				return 0, err
			}
		}
		return code, nil
	})
}
