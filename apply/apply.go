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
//  2. Verify: every file to change is read again and must still hold what
//     the simulation read (and every file to create must still be absent),
//     so a workspace changed in between is not overwritten.
//  3. Write: each file is written atomically with internal/safewrite (owner,
//     group and mode kept; hard links kept by writing in place; read-only
//     files refused); a deleted file is first renamed to a backup name next
//     to it; missing directories are created.
//  4. On any failure during the write step, every step already done is
//     undone in reverse order (old contents written back, backups renamed
//     back, created files and directories removed) and the error returned;
//     on success the backups are removed.
//
// Nothing is ever written outside the root: paths are resolved by the
// simulation (the path rule and symbolic links inside the root), and each
// file's directory is resolved again right before it is written.
package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/safewrite"
	"github.com/plangram/plangram/schema"
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

	// fail, when set (tests), is called before each write step with the
	// file's path; an error makes that step fail.
	fail func(path string) error
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
}

// Apply applies the file edits of docs, in order, to the directory root:
// all of them or none. It returns ErrRefused (wrapped) when a check does
// not pass, and another error when the workspace cannot be read or written
// (after undoing whatever it had written). ctx is checked between steps;
// a cancelled apply undoes what it wrote.
func Apply(ctx context.Context, docs []*ast.Document, root string, opts Options) (*Result, error) {
	absRoot, err := resolveRoot(root)
	if err != nil {
		return nil, err
	}
	wo := opts.Workspace
	wo.Strict = true
	sim := workspace.Simulate(ctx, docs, absRoot, wo)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{Changes: sim.Changes, Commands: sim.Commands, Diagnostics: make([][]*ast.Diagnostic, len(docs))}
	for i, doc := range docs {
		if doc == nil {
			continue
		}
		ds := append(append([]*ast.Diagnostic{}, doc.Diagnostics...), sim.Diagnostics[i]...)
		ds = append(ds, caseCollisions(doc, absRoot, opts.Workspace.Schema)...)
		res.Diagnostics[i] = append(ds, commandsNotRun(sim.Commands[i])...)
	}
	nothing := settle(res, sim.Tally, func(i int) *ast.Document { return docs[i] })
	return finish(ctx, res, absRoot, opts, nothing)
}

// resolveRoot returns root absolute, with its symbolic links resolved.
func resolveRoot(root string) (string, error) {
	if err := workspace.ValidateRoot(root); err != nil {
		return "", err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(absRoot)
}

// commandsNotRun notes each action of cmds: apply does not run it.
func commandsNotRun(cmds []*ast.Action) []*ast.Diagnostic {
	var out []*ast.Diagnostic
	for _, a := range cmds {
		out = append(out, &ast.Diagnostic{Severity: ast.Info, Code: CodeCommandNotRun, Span: a.NameSpan,
			Message: fmt.Sprintf("%s is not run: apply only changes files; run the command yourself if it is wanted", a.Name)})
	}
	return out
}

// finish refuses res when a check did not pass (or, with nothing, the
// error of settle, there is nothing to apply), and otherwise verifies and
// writes its changes (steps 2 to 4).
func finish(ctx context.Context, res *Result, absRoot string, opts Options, nothing error) (*Result, error) {
	refused := false
	for _, ch := range res.Changes {
		why := ""
		switch {
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
		for _, d := range ds {
			if d.Severity == ast.Error {
				refused = true
			}
		}
	}
	if nothing != nil {
		return res, nothing
	}
	if refused {
		return res, ErrRefused
	}
	t := &txn{root: absRoot, fail: opts.fail}
	if err := t.verify(res.Changes); err != nil {
		return res, err
	}
	if opts.DryRun {
		return res, nil
	}
	if err := t.write(ctx, res.Changes); err != nil {
		if uerr := t.undo(); uerr != nil {
			return res, fmt.Errorf("%w; undoing the files already written failed too: %w", err, uerr)
		}
		return res, err
	}
	t.commit()
	res.Applied = true
	return res, nil
}

// txn is one apply's write step and what undoes it.
type txn struct {
	root  string
	fail  func(path string) error
	moved map[string]fs.FileInfo // a moved file's source as it was, by destination
	undos []func() error
	// backups are the renamed-away files of deletions, removed on commit.
	backups []string
}

// full returns the absolute path of a change's slash path.
func (t *txn) full(rel string) string { return filepath.Join(t.root, filepath.FromSlash(rel)) }

// verify checks that the workspace still is what the simulation read, and
// records the modes of moved files' sources.
func (t *txn) verify(changes []workspace.Change) error {
	t.moved = map[string]fs.FileInfo{}
	for _, ch := range changes {
		p := t.full(ch.Path)
		if ch.MovedFrom != "" {
			if fi, err := os.Stat(t.full(ch.MovedFrom)); err == nil {
				t.moved[ch.Path] = fi
			}
		}
		if !ch.Existed {
			if _, err := os.Lstat(p); err == nil {
				return fmt.Errorf("%s: it appeared after the check; nothing was written", ch.Path)
			}
			continue
		}
		data, err := readRegular(p)
		if err != nil {
			return fmt.Errorf("%s: %w; nothing was written", ch.Path, err)
		}
		if string(data) != ch.Old {
			return fmt.Errorf("%s: it changed after the check; nothing was written", ch.Path)
		}
	}
	return nil
}

// write carries out the changes, recording how to undo each step. It
// works in four passes so that the cost of flushing to disk does not grow
// with the number of files: every new content is first staged in a
// temporary file next to its target (missing directories are created),
// then all of them are flushed to disk at once, then, change by change,
// each is renamed into place (a deletion renames the file to a backup),
// and last each directory whose entries changed is synced once. A failure
// in any pass removes the staged files not yet in place; the caller undoes
// the rest.
func (t *txn) write(ctx context.Context, changes []workspace.Change) error {
	b := &safewrite.Batch{}
	defer b.Abort()
	staged := make([]*safewrite.Staged, len(changes))
	for i, ch := range changes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !ch.Exists {
			continue
		}
		p := t.full(ch.Path)
		if err := t.inside(filepath.Dir(p)); err != nil {
			return err
		}
		var err error
		if ch.Existed {
			staged[i], err = b.Write(p, []byte(ch.New))
		} else {
			if err := t.mkdirs(filepath.Dir(p), b); err != nil {
				return err
			}
			if err := t.inside(filepath.Dir(p)); err != nil {
				return err
			}
			staged[i], err = b.Create(p, []byte(ch.New), t.moved[ch.Path])
		}
		if err != nil {
			return err
		}
	}
	if err := b.Sync(); err != nil {
		return err
	}
	for i, ch := range changes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if t.fail != nil {
			if err := t.fail(ch.Path); err != nil {
				return fmt.Errorf("%s: %w", ch.Path, err)
			}
		}
		p := t.full(ch.Path)
		if err := t.inside(filepath.Dir(p)); err != nil {
			return err
		}
		switch {
		case !ch.Exists: // delete: rename away, removed on commit
			bak := backupName(p)
			if err := os.Rename(p, bak); err != nil {
				return err
			}
			b.Changed(filepath.Dir(p))
			t.backups = append(t.backups, bak)
			t.undos = append(t.undos, func() error { return os.Rename(bak, p) })
		case ch.Existed:
			if err := staged[i].Commit(); err != nil {
				return err
			}
			old := ch.Old
			t.undos = append(t.undos, func() error { return safewrite.WriteFile(p, []byte(old)) })
		default:
			if err := staged[i].Commit(); err != nil {
				return err
			}
			t.undos = append(t.undos, func() error { return os.Remove(p) })
		}
	}
	return b.SyncDirs()
}

// inside checks that dir, resolved on disk now, is still inside the root:
// a directory swapped for a symbolic link after the check cannot redirect
// a write. A directory that does not exist yet is checked by its nearest
// existing ancestor.
func (t *txn) inside(dir string) error {
	for {
		resolved, err := filepath.EvalSymlinks(dir)
		if err == nil {
			rel, err := filepath.Rel(t.root, resolved)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return fmt.Errorf("%s: resolves outside the root (%s); nothing more is written", dir, resolved)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return err
		}
		dir = parent
	}
}

// mkdirs creates dir and its missing parents, recording their removal and
// noting the changed directories in b.
func (t *txn) mkdirs(dir string, b *safewrite.Batch) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
		b.Changed(filepath.Dir(d))
		t.undos = append(t.undos, func() error { return os.Remove(d) })
	}
	return nil
}

// undo reverses the recorded steps, last first, and reports every step
// that could not be undone.
func (t *txn) undo() error {
	var errs []error
	for i := len(t.undos) - 1; i >= 0; i-- {
		if err := t.undos[i](); err != nil {
			errs = append(errs, err)
		}
	}
	t.undos, t.backups = nil, nil
	return errors.Join(errs...)
}

// commit removes the deleted files' backups.
func (t *txn) commit() {
	for _, b := range t.backups {
		os.Remove(b)
	}
	t.undos, t.backups = nil, nil
}

// backupName returns an unused name next to p for a deleted file.
func backupName(p string) string {
	dir, base := filepath.Split(p)
	for i := 0; ; i++ {
		n := filepath.Join(dir, "."+base+".plangram-deleted-"+strconv.FormatInt(time.Now().UnixNano()+int64(i), 36))
		if _, err := os.Lstat(n); errors.Is(err, fs.ErrNotExist) {
			return n
		}
	}
}

// readRegular reads a regular file without blocking on anything else: the
// open is non-blocking and the type is taken from the open descriptor.
func readRegular(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file any more")
	}
	var b bytes.Buffer
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}

// caseCollisions gives the case-collision warnings of doc, as `check
// --root` does: paths of the plan, or a path and a name already in the
// root, that differ only in letter case (docs/check.md). They do not
// refuse the apply, which writes the names as the plan spells them.
func caseCollisions(doc *ast.Document, root string, s *schema.Schema) []*ast.Diagnostic {
	cases := workspace.NewCaseCollisions(doc.Dialect, s)
	defer cases.Close()
	cases.SetRoot(root)
	for _, a := range doc.Actions {
		cases.Action(a)
	}
	for _, a := range doc.Actions {
		if !cases.Unresolved() {
			break
		}
		cases.Resolve(a)
	}
	return cases.Diagnostics()
}
