package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/plangram/plangram/apply"
	"github.com/plangram/plangram/workspace"
)

// cmdRecover finishes an apply that was interrupted in DIR (killed, or its
// machine stopped) from the journal it left in DIR/.plangram: rolled back
// to the files as they were, or forward when every change had reached
// the disk; its temporary files and backups are removed (docs/apply.md).
// `apply` and `check --root` do the same first on their own. What it did
// goes to standard error. Exit 0 done or nothing to do, 2 usage, an
// apply running there, or a step that could not be undone.
func cmdRecover(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "recover", "--root DIR")
	root := fs.String("root", "", "project directory an apply was interrupted in (required)")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(paths) > 0 {
		return usageError(e, errors.New("recover takes no PATH, only --root DIR"))
	}
	if *root == "" {
		return usageError(e, errors.New("recover needs --root DIR"))
	}
	if err := workspace.ValidateRoot(*root); err != nil {
		return usageError(e, err)
	}
	rec, err := apply.Recover(ctx, *root)
	printRecovery(e, *root, rec)
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: recover: %v\n", err)
		return exitUsage
	}
	if rec == nil {
		fmt.Fprintf(e.stderr, "plangram: %s: no interrupted apply to recover\n", *root)
	}
	return exitOK
}

// printRecovery says on standard error what was recovered in root, if
// anything.
func printRecovery(e *env, root string, rec *apply.Recovery) {
	if rec != nil {
		fmt.Fprintf(e.stderr, "plangram: %s: %s\n", root, rec)
	}
}
