// Package apply carries out the file edits of parsed documents in a
// workspace, all or nothing.
//
// Every dialect's file operations are applied the same way, because they
// are simulated by package workspace first: acts (write_file, append_file,
// patch_file, replace, delete_file, move_file), plan (CREATE, EDIT), and any
// dialect whose actions workspace.Effects describes. Actions that run
// commands (run_command, EXECUTE) are never run, only listed.
//
// [Apply] works in four steps:
//
//  1. Check: workspace.Simulate runs the workspace rules in strict mode over
//     the documents, in order, against one virtual file system. Any error
//     diagnostic (the parser's or the workspace's), and any file whose
//     content the simulation does not know (larger than the size limit,
//     unreadable, written without content), refuses the whole apply:
//     nothing is written ([ErrRefused]).
//  2. Verify: every file to change is read again and must still hold
//     what the simulation read (and every file to create must still be
//     absent, every link to delete still name what it named), so a
//     workspace changed in between is not overwritten.
//  3. Write: under the lock of the root's .plangram directory, an intent
//     journal naming every step is written and synced there; then
//     missing directories are created, each new content is staged in a
//     temporary file next to its target, all are flushed at once, and
//     each change is put in place: an edit keeps the old file under a
//     backup name by a hard link and renames the new file over the name
//     (a file with several hard links is replaced, never written in
//     place, so no other name of it changes), a deletion renames the
//     entry (a symbolic link itself, never its target) to a backup name,
//     a creation renames its staged file to a name that must still be
//     free. Owner (where the process may), group and mode are kept.
//  4. On any failure during the write step, every step begun is undone
//     in reverse order (backups renamed back, staged and created files
//     and created directories removed) and the error returned; on
//     success the backups and the journal are removed.
//
// Nothing is ever written outside the root, nor through a symbolic link:
// every file-system operation of steps 2 to 4 and of recovery goes
// through one handle on the root that reaches each directory without
// following any link (openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS on
// Linux, os.Root checked element by element elsewhere) and acts on each
// entry itself (the *at calls), so a file or a directory swapped for a
// link after the check makes the step fail instead of redirecting it.
//
// An apply killed part-way leaves its journal: the next Apply, or
// [Recover] (`plangram recover`, `plangram check --root`), rolls it back,
// or forward when every change had reached the disk, and removes its
// temporary files and backups. docs/apply.md states the guarantees, the
// threat model and the states a kill can leave.
package apply

import (
	"context"
	"errors"
	"fmt"
	"github.com/plangram/plangram/internal/rootfs"
	"io/fs"
	"slices"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/workspace"
)

// CodeCannotApply is the diagnostic of a file change that the simulation
// allowed but apply cannot carry out (its content is unknown).
const CodeCannotApply = "cannot-apply"

// CodeCommandNotRun is the note on each action that runs a command: apply
// lists it and never runs it.
const CodeCommandNotRun = "command-not-run"

// ErrRefused is wrapped by the error Apply returns when a check failed:
// the diagnostics say why, and nothing was written.
var ErrRefused = errors.New("refused: the checks did not pass")

// Options configures Apply.
type Options struct {
	// Workspace configures the simulation (schema, effects, size limit);
	// Strict is always set.
	Workspace workspace.Options
	// DryRun checks and verifies but writes nothing.
	DryRun bool

	// hook, when set (tests), is called before each step of the write
	// and undo ("stage", "write", "kept" between an edit's backup and its
	// rename, "undo", then "done" and "cleanup") with
	// the path of the entry; an error makes that step fail, and
	// errSimulatedCrash stops the apply there as a kill would.
	hook func(step, path string) error
	// portable forces the os.Root implementation of the root handle
	// (tests), which other platforms than Linux use.
	portable bool
}

// Result is what Apply found and did.
type Result struct {
	// Diagnostics[i] are the diagnostics of docs[i]: the parser's, the
	// workspace rules', and apply's own (cannot-apply, and a
	// command-not-run note per command), sorted.
	Diagnostics [][]*ast.Diagnostic
	// Changes are the file changes, by path (see workspace.Change).
	Changes []workspace.Change
	// Commands[i] are the command actions of docs[i], never run.
	Commands [][]*ast.Action
	// Applied says the changes were written (false for a dry run, a
	// refusal or a failure).
	Applied bool
	// AlreadyApplied says every action that changes a file was found
	// already applied (workspace.CodeAlreadyApplied): there is nothing to
	// change, and applying the plan again is a success that writes
	// nothing.
	AlreadyApplied bool
	// Recovered, when not nil, says an apply interrupted earlier in the
	// root was found and recovered before this one began (see Recover).
	Recovered *Recovery
}

// Apply applies the file edits of docs, in order, to the directory root:
// all of them or none. It returns ErrRefused (wrapped) when a check does
// not pass, and another error when the workspace cannot be read or written
// (after undoing whatever it had written). ctx is checked between steps;
// a cancelled apply undoes what it wrote.
func Apply(ctx context.Context, docs []*ast.Document, root string, opts Options) (*Result, error) {
	absRoot, err := workspace.ResolveRoot(root)
	if err != nil {
		return nil, err
	}
	h, rec, err := openHold(ctx, absRoot, opts)
	if err != nil {
		return recovered(rec), err
	}
	defer h.close()
	wo := opts.Workspace
	wo.Strict = true
	sim := workspace.Simulate(ctx, docs, absRoot, wo)
	if err := ctx.Err(); err != nil {
		return recovered(rec), err
	}
	res := &Result{Changes: sim.Changes, Commands: sim.Commands, Diagnostics: make([][]*ast.Diagnostic, len(docs)), Recovered: rec}
	for i, doc := range docs {
		if doc == nil {
			continue
		}
		ds := append(append([]*ast.Diagnostic{}, doc.Diagnostics...), sim.Diagnostics[i]...)
		ds = append(ds, workspace.DocCaseCollisions(doc, opts.Workspace.Schema, absRoot, nil)...)
		for _, a := range sim.Commands[i] {
			ds = append(ds, &ast.Diagnostic{Severity: ast.Info, Code: CodeCommandNotRun, Span: a.NameSpan,
				Message: fmt.Sprintf("%s is not run: apply only changes files; run the command yourself if it is wanted", a.Name)})
		}
		res.Diagnostics[i] = ds
	}
	nothing := settle(res, sim.Tally, func(i int) *ast.Document { return docs[i] })
	return finish(ctx, res, h, opts, nothing)
}

// recovered is the result of an apply that stopped early: nil, or only
// what was recovered.
func recovered(rec *Recovery) *Result {
	if rec == nil {
		return nil
	}
	return &Result{Recovered: rec}
}

// finish refuses res when a check did not pass (or, with nothing, the
// error of settle, there is nothing to apply), and otherwise verifies and
// writes its changes (steps 2 to 4).
func finish(ctx context.Context, res *Result, h *hold, opts Options, nothing error) (*Result, error) {
	refused := false
	for _, ch := range res.Changes {
		why := ""
		switch {
		case isMetaPath(ch.Path):
			why = fmt.Sprintf("%s is in %s, plangram's own metadata directory, which a plan never writes", ch.Path, metaDir)
		case ch.Link != "":
		case ch.Existed && !ch.OldKnown:
			why = fmt.Sprintf("%s cannot be changed: %s", ch.Path, ch.Problem)
		case ch.Exists && !ch.NewKnown:
			why = fmt.Sprintf("the new content of %s is unknown: %s", ch.Path, ch.Problem)
		}
		if why != "" && ch.Doc < len(res.Diagnostics) {
			res.Diagnostics[ch.Doc] = append(res.Diagnostics[ch.Doc], &ast.Diagnostic{Severity: ast.Error,
				Code: CodeCannotApply, Span: ch.Action.NameSpan, Message: ch.Action.Name + ": " + why})
		}
	}
	for _, ds := range res.Diagnostics {
		ast.SortDiagnostics(ds)
		refused = refused || slices.ContainsFunc(ds, func(d *ast.Diagnostic) bool { return d.Severity == ast.Error })
	}
	if nothing != nil {
		return res, nothing
	}
	if refused {
		return res, ErrRefused
	}
	t := &txn{fs: h.fs, hook: opts.hook}
	if err := t.verify(ctx, res.Changes); err != nil {
		return res, err
	}
	if opts.DryRun || len(t.steps) == 0 {
		return res, nil
	}
	if h.meta == nil {
		return res, fmt.Errorf("%s cannot be created in the root for the journal (permission denied); nothing was written", metaDir)
	}
	if err := h.meta.writeJournal(t.steps); err != nil {
		return res, err
	}
	err := t.write(ctx)
	if err == nil {
		err = t.run("done", "")
	}
	if err == nil {
		err = h.meta.markDone()
	}
	if errors.Is(err, errSimulatedCrash) {
		return res, err
	}
	if err != nil {
		if uerr := t.undo(); uerr != nil {
			return res, fmt.Errorf("%w; undoing the files already written failed too: %w (the journal is kept in %s: `plangram recover --root` tries again)", err, uerr, metaDir)
		}
		if derr := h.meta.dropJournal(); derr != nil {
			return res, fmt.Errorf("%w; removing the journal: %w", err, derr)
		}
		return res, err
	}
	res.Applied = true
	if err := t.run("cleanup", ""); err != nil {
		return res, err
	}
	if _, err := finishAll(t.fs, slices.All(t.steps), rollForward); err != nil {
		return res, fmt.Errorf("the changes were written, but removing the backups failed: %w (`plangram recover --root` tries again)", err)
	}
	if err := h.meta.dropJournal(); err != nil {
		return res, fmt.Errorf("the changes were written, but removing the journal failed: %w", err)
	}
	return res, nil
}

// errSimulatedCrash, returned by a test hook, stops an apply where it is,
// as a kill would: nothing is undone and the journal stays.
var errSimulatedCrash = errors.New("simulated crash")

// hold is an apply's handle on its root and, for a write, the lock of
// the root's metadata directory.
type hold struct {
	fs   rootfs.Root
	meta *meta
}

// openHold opens the root absRoot, locks its metadata directory (for a
// dry run only when it exists) and recovers an interrupted apply found
// there.
func openHold(ctx context.Context, absRoot string, opts Options) (*hold, *Recovery, error) {
	r, err := rootfs.Open(absRoot, opts.portable)
	if err != nil {
		return nil, nil, err
	}
	m, err := lockMeta(r, !opts.DryRun)
	if errors.Is(err, fs.ErrPermission) && !opts.DryRun {
		// A root where .plangram cannot be made: the checks still run
		// and report; the write is refused (finish), for want of a
		// journal.
		m, err = nil, nil
	}
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	var rec *Recovery
	if m != nil {
		rec, err = m.recover(ctx)
		if err != nil {
			m.release()
			r.Close()
			return nil, rec, fmt.Errorf("recovering an interrupted apply: %w", err)
		}
		if opts.DryRun {
			m.release()
			m = nil
		}
	}
	return &hold{fs: r, meta: m}, rec, nil
}

// close unlocks the metadata directory (removed when empty) and closes
// the root.
func (h *hold) close() {
	if h.meta != nil {
		h.meta.release()
	}
	h.fs.Close()
}
