package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/plangram/plangram/apply"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/workspace"
)

// cmdApply applies the file edits of plans to a workspace, all or nothing
// (docs/apply.md): every check must pass first, then each file is written
// atomically, keeping owner and mode (a hard-linked file is replaced by a
// new file); a failure part-way undoes what was written. Commands are
// listed, never run. The root is the current directory unless --root names
// one, as for git apply and patch; the summary line on standard error
// names it. Exit 0 applied (or would apply, with --dry-run, or every action
// was already applied and nothing was changed), 1 refused with diagnostics
// (nothing to apply, part of the plan already applied, a failed check), 2
// usage or I/O.
func cmdApply(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "apply", "[--root DIR] [--dry-run] [-d] [--dialect D] [--fence F] [--schema FILE] [--include GLOB] [PATH...|-]")
	pf := addParserFlags(fs)
	root := fs.String("root", ".", "project directory the edits apply to (default: the current directory)")
	dry := fs.Bool("dry-run", false, "check and report, write nothing")
	diff := fs.Bool("d", false, "print the unified diff of every file change")
	include := addIncludeFlag(fs)
	paths, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := workspace.ValidateRoot(*root); err != nil {
		return usageError(e, err)
	}
	popts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	// All the inputs (expandInputs) are one transaction.
	ins, err := expandInputs(paths, *include...)
	if err != nil {
		return usageError(e, err)
	}
	stdin := stdinOnce(e.stdin)
	srcs := make([]apply.Input, len(ins))
	for i, in := range ins {
		src, err := in.read(stdin)
		if err != nil {
			return usageError(e, err)
		}
		srcs[i] = apply.Input{Name: in.name, Src: src}
	}
	// SIGTERM and SIGHUP (a closed terminal, a CI job cancelled) cancel
	// the apply like SIGINT does: it stops between steps and undoes what
	// it wrote, instead of dying with half of the files written.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	res, err := apply.ApplyInputs(ctx, srcs, popts, *root, apply.Options{Workspace: workspace.Options{Schema: popts.Schema}, DryRun: *dry})
	if res != nil {
		printRecovery(e, *root, res.Recovered)
		for i, ds := range res.Diagnostics {
			printDiags(e, srcs[i].Name, ds)
		}
	}
	where := rootName(fs, *root)
	if errors.Is(err, apply.ErrNothingToApply) {
		fmt.Fprintf(e.stderr, "plangram: apply refused: nothing to apply; nothing was written to %s\n", where)
		return exitError
	}
	if errors.Is(err, apply.ErrRefused) {
		fmt.Fprintf(e.stderr, "plangram: apply refused: nothing was written to %s\n", where)
		return exitError
	}
	if err != nil {
		if err == context.Canceled {
			// Cancelled by a signal, with everything written undone (an
			// undo that failed wraps the cancellation with why).
			fmt.Fprintf(e.stderr, "plangram: apply interrupted: nothing was changed in %s (what had been written was put back)\n", where)
		} else {
			fmt.Fprintf(e.stderr, "plangram: apply: %v\n", err)
		}
		return exitUsage
	}
	for _, ch := range res.Changes {
		if *diff {
			// The one diff of a change, which render --root shows too.
			if err := linediff.File(e.stdout, ch.Path, ch.Existed, ch.Exists, ch.Old, ch.New); err != nil {
				return usageError(e, err)
			}
			continue
		}
		fmt.Fprintln(e.stdout, changeLine(ch))
	}
	switch n := number.Plural(len(res.Changes), "file change"); {
	case res.AlreadyApplied:
		fmt.Fprintf(e.stderr, "plangram: already applied: every change of the plan is in %s already; nothing was written\n", where)
	case *dry:
		fmt.Fprintf(e.stderr, "plangram: dry run: would apply %s to %s; nothing was written\n", n, where)
	default:
		fmt.Fprintf(e.stderr, "plangram: applied %s to %s\n", n, where)
	}
	return exitOK
}

// rootName is how the summary line names the root: as --root gave it, or,
// when it was not given, the current directory by its absolute path.
func rootName(fs *flag.FlagSet, root string) string {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "root" })
	if !given {
		if abs, err := filepath.Abs(root); err == nil {
			return abs
		}
	}
	return root
}

// changeLine describes one change: "A path", "M path", "D path",
// "A path (moved from src)".
func changeLine(ch workspace.Change) string {
	kind := "M"
	switch {
	case !ch.Exists:
		kind = "D"
	case !ch.Existed:
		kind = "A"
	}
	s := kind + " " + ch.Path
	if ch.MovedFrom != "" {
		s += " (moved from " + ch.MovedFrom + ")"
	}
	return s
}
