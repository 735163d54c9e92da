package main

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/plangram/plangram/apply"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/workspace"
)

const applyUsage = "--root DIR [--dry-run] [-d] [--dialect D] [--fence F] [--schema FILE] [PATH...|-]"

// cmdApply applies the file edits of plans to a workspace, all or nothing
// (docs/apply.md): every check must pass first, then each file is written
// atomically, keeping owner and mode (a hard-linked file is replaced by a
// new file); a failure part-way undoes what was written. Commands are
// listed, never run. Exit 0 applied (or would apply, with --dry-run), 1
// refused with diagnostics, 2 usage or I/O.
func cmdApply(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "apply", applyUsage)
	pf := addParserFlags(fs, "input dialect: auto or a dialect name (acts, plan, …)")
	root := fs.String("root", "", "project directory the edits apply to (required)")
	dry := fs.Bool("dry-run", false, "check and report, write nothing")
	diff := fs.Bool("d", false, "print the unified diff of every file change")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if *root == "" {
		return usageError(e, errors.New("apply needs --root DIR"))
	}
	if err := workspace.ValidateRoot(*root); err != nil {
		return usageError(e, err)
	}
	popts, ok := pf.options(e)
	if !ok {
		return exitUsage
	}
	// The one input layer: no FILE or "-" is standard input, a directory
	// every *.md below it; all of them are one transaction.
	ins, err := expandInputs(paths)
	if err != nil {
		return usageError(e, err)
	}
	sd := &stdinData{r: e.stdin}
	// The plans are read whole but parsed as they are applied: each
	// action is handed to the workspace rules and not kept
	// (apply.ApplyInputs), so an apply holds about what `check --root`
	// holds, not every plan's tree.
	srcs := make([]apply.Input, len(ins))
	names := make([]string, len(ins))
	for i, in := range ins {
		src, err := in.read(sd)
		if err != nil {
			return usageError(e, err)
		}
		srcs[i], names[i] = apply.Input{Name: in.name, Src: src}, in.name
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
			printDiags(e, names[i], ds)
		}
	}
	if errors.Is(err, apply.ErrRefused) {
		fmt.Fprintln(e.stderr, "plangram: apply refused: nothing was written")
		return exitError
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: apply: %v\n", err)
		return exitUsage
	}
	for _, ch := range res.Changes {
		if *diff {
			a, b := "a/"+ch.Path, "b/"+ch.Path
			if !ch.Existed {
				a = "/dev/null"
			}
			if !ch.Exists {
				b = "/dev/null"
			}
			// A move is a deletion and a creation, so that the diff
			// applies with patch -p1 as it is.
			if ch.Old == ch.New && ch.Existed != ch.Exists {
				// An empty file created or deleted has no line to show:
				// git's header says it (git apply and plangram read it).
				how := "new"
				if !ch.Exists {
					how = "deleted"
				}
				fmt.Fprintf(e.stdout, "diff --git a/%s b/%s\n%s file mode 100644\n", ch.Path, ch.Path, how)
				continue
			}
			if err := linediff.Unified(e.stdout, a, b, []byte(ch.Old), []byte(ch.New), 3); err != nil {
				return usageError(e, err)
			}
			continue
		}
		fmt.Fprintln(e.stdout, changeLine(ch))
	}
	return exitOK
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
