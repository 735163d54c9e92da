// Package workspace checks a parsed plan against the project it will run
// in, before it runs: an EDIT whose FIND text is not in the file (or is in it
// twice), a READ of a file that does not exist, a CREATE over an existing
// file, a path that leaves the project. Each rule has its own diagnostic code
// (docs/check.md; the registry in package ast lists them).
//
// Actions are checked in order against a virtual file system: the files on
// disk under the root, overlaid with what earlier actions of the same plan
// did. A READ of a file CREATEd earlier is fine, an EDIT after an EDIT
// matches against the edited text, and a deleted or moved file is gone.
// Nothing is ever written to the workspace.
//
// Which parameters are paths is read from the action schema (types path and
// resource, and lists of them); which parameters hold FIND/REPLACE text,
// content or flags is read from their names (old/new, edits[{find, replace}],
// content, overwrite, match_all). Only what an action does to the files is
// named per action, in one table: DefaultEffects.
package workspace

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/internal/rootfs"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// Diagnostic codes of the workspace rules (docs/check.md).
const (
	// CodeFindNotFound: a FIND (EDIT) or old (patch_file) text does not
	// occur in the target file byte for byte. The diagnostic names the
	// closest region and carries a diff of the difference.
	CodeFindNotFound = "find-not-found"
	// CodeFindAmbiguous: the FIND text occurs more than once and the action
	// does not ask for every occurrence (Match All).
	CodeFindAmbiguous = "find-ambiguous"
	// CodeFindEmpty: an empty FIND text matches everywhere.
	CodeFindEmpty = "find-empty"
	// CodeFileNotFound: an action needs an existing file that neither the
	// workspace nor an earlier action of the plan provides.
	CodeFileNotFound = "file-not-found"
	// CodeFileExists: a CREATE (or write_file, or a move's destination)
	// replaces an existing file without Overwrite.
	CodeFileExists = "file-exists"
	// CodeNotAFile: an action that reads or writes a file names a directory.
	CodeNotAFile = schema.CodeNotAFile
	// CodeAbsolutePath: a path or cwd is absolute (or starts with ~); the
	// path rule every dialect shares (schema.CheckPath).
	CodeAbsolutePath = schema.CodeAbsolutePath
	// CodePathEscapes: a path or cwd leaves the project root through `..`
	// (the path rule) or a symbolic link (only the workspace can tell).
	CodePathEscapes = schema.CodePathEscapes
	// CodeBadPath: a path is empty, not valid UTF-8 or contains a control
	// character (the path rule).
	CodeBadPath = schema.CodeBadPath
	// CodeURLNotAllowed: a path parameter holds a URL (`https://host/a`,
	// `file:///etc/passwd`) rather than a project path (the path rule).
	CodeURLNotAllowed = schema.CodeURLNotAllowed
	// CodeFileUnreadable: a file exists but cannot be checked (permissions,
	// size); the rules that need its content are skipped.
	CodeFileUnreadable = "file-unreadable"
	// CodeNotADirectory: a path goes through a file as if it were a
	// directory (`a/b` where `a` is a file in the workspace or one the plan
	// creates, or a file the plan deletes: a file is never replaced by a
	// directory).
	CodeNotADirectory = "not-a-directory"
	// CodePathUnusable: the operating system cannot use the path at all
	// (a name too long, a loop of symbolic links).
	CodePathUnusable = "path-unusable"
	// CodeMoveOntoItself: a move whose destination is its source (after
	// cleaning and resolving symbolic links): nothing is done.
	CodeMoveOntoItself = "move-onto-itself"
	// CodeDeleteMismatch: a delete that says what it removes (a udiff's
	// `-` lines, param old) names a file that holds something else.
	CodeDeleteMismatch = "delete-content-differs"
	// CodeReadOnly: the plan changes a file of the workspace whose mode
	// lacks the owner's write bit (0444): apply refuses to write it.
	CodeReadOnly = "read-only-file"
	// CodeBadRoot: the workspace root itself cannot be used.
	CodeBadRoot = "workspace-root"
	// CodeBeyondSymlink: a path goes through a symbolic link inside the
	// root (a directory on it is a link), or an action that writes a file
	// names a link: apply never follows a link, as git apply refuses a
	// path "beyond a symbolic link".
	CodeBeyondSymlink = "beyond-symlink"
	// CodeNameTooLong: a component of a path is longer than the root's
	// file system allows for one name (255 bytes on most): apply cannot
	// create it.
	CodeNameTooLong = "name-too-long"
)

// Op is what an action does to the workspace.
type Op int

// Workspace operations. Paths are the action's path parameters in schema
// order (types path and resource); the first one is the target.
const (
	// OpNone: the action's paths are checked for absolute and escaping
	// paths only.
	OpNone Op = iota
	// OpWrite creates or replaces the target with the `content` parameter.
	// An existing target without `overwrite: true` is CodeFileExists.
	OpWrite
	// OpAppend appends `content` to the target, creating it when missing.
	OpAppend
	// OpEdit replaces FIND text (params old/new, or edits[{find, replace}])
	// in the existing target: exactly one occurrence, or every occurrence
	// with `match_all: true`.
	OpEdit
	// OpReplaceAll is OpEdit that replaces every occurrence and needs at
	// least one.
	OpReplaceAll
	// OpRead reads the existing target.
	OpRead
	// OpDelete deletes the existing target.
	OpDelete
	// OpMove moves the existing first path to the second.
	OpMove
	// OpRun runs a command (in `cwd`): the files it touches are unknown,
	// so later missing files are warnings, not errors.
	OpRun
	// OpCreate creates the target with `content`; an existing target is
	// an error (edit formats' add_file, edits.go).
	OpCreate
	// OpSearchReplace replaces the `search` lines, which must occur
	// exactly once as whole lines, by `replace`; an empty search creates
	// or appends (search-replace's search_replace, edits.go).
	OpSearchReplace
	// OpPatch applies `hunks` in order to the existing target and moves it
	// to `move_to` when set (udiff's and apply-patch's update_file,
	// edits.go).
	OpPatch
	// OpReplaceInFile applies the SEARCH/REPLACE blocks of `diff` in
	// order, each as OpSearchReplace does, but an empty search only
	// creates a missing or empty file (Cline's replace_in_file, edits.go).
	OpReplaceInFile
	// OpWriteKeepEnd is OpWrite that keeps the final line ending of the
	// file it replaces when `content` has none, as Cline's write_to_file
	// does (its value loses the line ending before the closing tag).
	OpWriteKeepEnd
)

// Effects maps action names to what they do. It is the one table of
// per-action knowledge; everything else comes from the schema.
type Effects map[string]Op

// DefaultEffects returns the effects of the built-in dialects' actions (a
// fresh map the caller may extend for a custom dialect; docs/check.md
// tabulates them). Every other action has its paths checked only.
func DefaultEffects() Effects {
	return Effects{
		"write_file":  OpWrite,
		"append_file": OpAppend,
		"patch_file":  OpEdit,
		"replace":     OpReplaceAll,
		"read_file":   OpRead,
		"delete_file": OpDelete,
		"move_file":   OpMove,
		"run_command": OpRun,

		"CREATE":  OpWrite,
		"EDIT":    OpEdit,
		"READ":    OpRead,
		"EXECUTE": OpRun,

		"search_replace": OpSearchReplace,
		"add_file":       OpCreate,
		"update_file":    OpPatch,

		"write_to_file":   OpWriteKeepEnd,
		"replace_in_file": OpReplaceInFile,
		"execute_command": OpRun,
	}
}

// DefaultMaxFileSize is the largest file whose content is checked (16 MiB);
// Options.MaxFileSize changes it. Only regular files are ever read: a named
// pipe, a device or a socket in the workspace is reported as unreadable.
const DefaultMaxFileSize = 16 << 20

// Options configures Check.
type Options struct {
	// Silenced, when set, names the diagnostics a directive comment or
	// --disable silences (grammar.Options.Silenced): they are dropped
	// before they count against the cap of 100 a code.
	Silenced func(code string, line int) bool
	// Schema describes the document's actions; nil means the built-in
	// schema of doc.Dialect. Actions the schema does not know have the
	// parameters named path, cwd, resource, src and dest checked as paths.
	Schema *schema.Schema
	// Effects says what each action does; nil means DefaultEffects().
	Effects Effects
	// Strict is for applying a document rather than checking it: commands
	// are never run, so a file missing after one is still an error, and a
	// file whose content cannot be read makes an edit of it an error
	// (package apply sets it).
	Strict bool
	// MaxFileSize bounds the files whose content is read (0:
	// DefaultMaxFileSize, 16 MiB). A larger file is not read: the rules
	// that need its content report CodeFileUnreadable.
	MaxFileSize int64
	// Source, optional, is the text the documents were parsed from: a
	// file written from a fenced block whose content lacks a final line
	// ending gets the one that follows the content there.
	Source []byte
}

// Check runs the workspace rules over doc's actions in order against the
// directory root, and returns the diagnostics sorted by position. It only
// reads the workspace. An unusable root gives one CodeBadRoot diagnostic.
// When ctx is cancelled Check stops and returns what it found so far.
func Check(ctx context.Context, doc *ast.Document, root string, opts Options) []*ast.Diagnostic {
	return Simulate(ctx, []*ast.Document{doc}, root, opts).Diagnostics[0]
}

// Simulation is what Simulate found: the diagnostics of each document, the
// net change to each file, and the actions that run commands.
type Simulation struct {
	// Diagnostics[i] are the workspace diagnostics of docs[i], sorted.
	Diagnostics [][]*ast.Diagnostic
	// Changes are the files the documents create, change or delete, by
	// path: the net effect of all their actions, in the order of Path.
	Changes []Change
	// Commands[i] are the actions of docs[i] that run commands (OpRun).
	// Simulate never runs them; their effect on the files is unknown.
	Commands [][]*ast.Action
	// Tally[i] counts the actions of docs[i] by what they do to the files
	// and how many of them are already applied.
	Tally []Tally
}

// Change is the net effect of the simulated documents on one file.
type Change struct {
	// Path is the slash path relative to the root, symbolic links inside
	// the root resolved: the file that would be written.
	Path string
	// Existed says a regular file was at Path before; Old is its content
	// when OldKnown.
	Existed  bool
	Old      string
	OldKnown bool
	// Exists says a file is at Path afterwards (false: deleted or moved
	// away); New is its content when NewKnown.
	Exists   bool
	New      string
	NewKnown bool
	// Problem says why a content is unknown (too large, unreadable, a
	// write without content).
	Problem string
	// MovedFrom is the path the file at Path was moved from (its mode is
	// the one to keep), "" when it was not moved here.
	MovedFrom string
	// Link is the symbolic link's target text when the entry is a symbolic
	// link: for a deletion, the link at Path before; for a move's
	// destination, the link moved there. Old and New are empty then.
	Link string
	// Action is the last action that changed the file, in Doc
	// (an index into the documents).
	Action *ast.Action
	Doc    int
}

// Simulate runs the workspace rules over the documents' actions in order,
// one after the other against one virtual file system (the second document
// sees what the first did), and returns the diagnostics per document and
// the net change per file. It only reads the workspace. An unusable root
// gives one CodeBadRoot diagnostic on the first document and no changes.
// When ctx is cancelled it stops and returns what it found so far.
func Simulate(ctx context.Context, docs []*ast.Document, root string, opts Options) *Simulation {
	sim := &Simulation{Diagnostics: make([][]*ast.Diagnostic, len(docs)), Commands: make([][]*ast.Action, len(docs)), Tally: make([]Tally, len(docs))}
	c, err := newChecker(root, opts)
	if err != nil {
		for i, doc := range docs {
			if doc != nil {
				sim.Diagnostics[i] = []*ast.Diagnostic{{Severity: ast.Error, Code: CodeBadRoot, Message: ast.EscapeInvalidUTF8(err.Error()),
					Span: ast.Span{Start: doc.Span.Start, End: doc.Span.Start}}}
				break
			}
		}
		return sim
	}
	for i, doc := range docs {
		if doc == nil || ctx.Err() != nil {
			continue
		}
		c.begin(i, doc, opts)
		for _, a := range doc.Actions {
			if ctx.Err() != nil {
				break
			}
			if c.effects[a.Name] == OpRun {
				sim.Commands[i] = append(sim.Commands[i], a)
			}
			c.action(ctx, a)
		}
		sim.Diagnostics[i] = ast.EscapeDiagnostics(c.diagnostics())
		sim.Tally[i] = c.tally
	}
	sim.Changes = c.changes()
	c.fsys.Close()
	return sim
}

// changes lists the net change of every file an action touched.
func (c *checker) changes() []Change {
	var out []Change
	for rel, e := range c.o {
		f := e.cur
		if f == nil || f.by == nil {
			continue // not looked at, as on disk, or a directory
		}
		ch := Change{Path: rel, Exists: f.exists, Action: f.by, Doc: f.doc}
		d := e.disk
		switch {
		case d != nil && d.link != "":
			// A link deleted or moved away (onLink refuses anything else
			// at its place), or moved back.
			if f.exists && f.link == d.link && f.origin == rel {
				continue
			}
			ch.Existed, ch.OldKnown = true, true
			if !f.exists {
				ch.Link = d.link
			}
		default:
			ch.setOld(d)
		}
		if !ch.Existed && !ch.Exists {
			continue // created and removed again
		}
		if f.exists && f.link != "" {
			// A link moved here: the link itself, never its target.
			ch.NewKnown, ch.Link = true, f.link
			if f.origin != "" && f.origin != rel {
				ch.MovedFrom = f.origin
			}
			out = append(out, ch)
			continue
		}
		ch.setNew(f)
		if ch.Existed && ch.Exists && sameAsDisk(rel, f, d) {
			continue // edited back to what it was
		}
		out = append(out, ch)
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// setOld records d, what the disk held at the path, as the change's Old.
func (ch *Change) setOld(d *vfile) {
	if d != nil && d.exists && !d.dir {
		ch.Existed, ch.Old, ch.OldKnown = true, d.content, d.known
		if !d.known {
			ch.Problem = d.problem
		}
	}
}

// setNew records f, the path's state after the change, as its New.
func (ch *Change) setNew(f *vfile) {
	if !f.exists {
		return
	}
	ch.New, ch.NewKnown = f.content, f.known
	if !f.known {
		ch.Problem = cmp.Or(f.problem, "its content is unknown")
	}
	if f.origin != "" && f.origin != ch.Path {
		ch.MovedFrom = f.origin
	}
}

// checker holds the state of one Check: the virtual file system and the
// diagnostics.
type checker struct {
	root string // absolute, symlinks resolved
	// fsys is a handle on root: every file and directory the checker
	// reads is opened through it, so no read leaves the root whatever a
	// symbolic link or a concurrent rename does (rootfs).
	fsys rootfs.Root
	// stats holds what lstat found on disk (or its error), by absolute path.
	stats map[string]lstatResult
	// nameMax is the longest name the root's file system allows.
	nameMax int
	schema  *schema.Schema
	effects Effects
	maxSize int64
	// o holds the state of each path looked at, by slash path relative
	// to root (entry.go).
	o map[string]*entry
	// src is Options.Source.
	src []byte
	// doc is the index of the document being checked; strict: Options.Strict.
	doc    int
	strict bool
	diags  []*ast.Diagnostic
	ran    *ast.Action // the last command-running action so far
	// cap lists the first MaxPerCode diagnostics of each code of the
	// document and counts the rest, which one diagnostic sums up at the
	// end, as the parsers do.
	cap grammar.Cap
	// parsedStatic and parsedSummed are the path rule's breaches the
	// parser of the document reported (parsedPathRule): not said twice.
	parsedStatic map[staticKey]bool
	parsedSummed map[string]bool
	// pathBuf holds the path arguments of the action being checked
	// that its effect uses (action), used again for the next one.
	pathBuf []pathArg
	// closestWork is the work the closest-region searches of not-found
	// diagnostics did so far, closestAllow the bytes that pay for it (files
	// read, FIND texts not found), closestFloor the budget's floor (0:
	// closestFloor the constant; tests set -1 for none); grams is the
	// search's trigram bit set, made once (match.go).
	closestWork, closestAllow, closestFloor int
	grams                                   []uint64
	// work is the budget of bytes scanned and copied (budget.go); seen
	// is how far into the document the actions reach, paid for so far;
	// stopped is set once the budget is spent.
	work    *budget
	seen    int
	stopped bool
	// readOnly lists the entries whose disk file is read-only
	// (vfile.readOnly): readOnlyChanged reports those the plan changes.
	readOnly []*entry
	// nl is the document's line ending ("" unknown), which a write from a
	// fenced block ends with (endLine).
	nl string
	// aaHit counts the edits of the current action found already applied,
	// aaMiss the changes it made (set); tally counts the document's
	// actions (applied.go).
	aaHit, aaMiss int
	tally         Tally
}

// sameAsDisk reports whether f, the state of path rel that an action
// made, holds what the disk file disk holds at rel: edited back to what
// it was, not moved there from another path (no net change).
func sameAsDisk(rel string, f, disk *vfile) bool {
	return disk != nil && disk.known && f.known && (f.origin == "" || f.origin == rel) && f.content == disk.content
}

// readOnlyChanged returns a CodeReadOnly diagnostic, counted by cp, for
// each read-only file of the workspace that the document being checked
// changed last and that it leaves in place with another content: the net
// change apply would refuse to write (a file deleted or moved away, or
// edited back to what it was, is none).
func (c *checker) readOnlyChanged(cp *grammar.Cap) []*ast.Diagnostic {
	var out []*ast.Diagnostic
	for _, e := range c.readOnly {
		f, disk, rel := e.cur, e.disk, e.rel
		if f == nil || f.by == nil || f.doc != c.doc || !f.exists || f.dir || disk == nil || !disk.readOnly {
			continue
		}
		if sameAsDisk(rel, f, disk) {
			continue // edited back to what it was
		}
		span := f.by.NameSpan
		if !cp.Take(ast.Error, CodeReadOnly, span, "") {
			continue
		}
		out = append(out, &ast.Diagnostic{Severity: ast.Error, Code: CodeReadOnly, Span: span,
			Message: fmt.Sprintf("%s changes %s, which is read-only (mode %04o): apply refuses to write it; make it writable (chmod u+w) or leave it alone", f.by.Name, rel, disk.perm)})
	}
	return out
}

// Checker runs the workspace rules over the actions of one document handed
// to it one at a time, in order, as Simulate does, for a caller that needs
// what each action did (`render --root` shows each action's changes: Step).
type Checker struct {
	c   *checker
	err error // an unusable root
}

// NewChecker returns a Checker of a document of the dialect against root
// (opts as for Check).
func NewChecker(root, dialect string, opts Options) *Checker {
	c, err := newChecker(root, opts)
	if err != nil {
		return &Checker{err: err}
	}
	c.begin(0, &ast.Document{Dialect: dialect}, opts)
	return &Checker{c: c}
}

// Close closes the Checker's handle on the root; Action must not be
// called after it.
func (k *Checker) Close() {
	if k.c != nil {
		k.c.fsys.Close()
	}
}

// Action checks the document's next action and applies its effect to the
// overlay.
func (k *Checker) Action(ctx context.Context, a *ast.Action) {
	if k.err == nil && ctx.Err() == nil {
		k.c.action(ctx, a)
	}
}

// diagnostics returns the diagnostics of the document being checked,
// sorted.
func (c *checker) diagnostics() []*ast.Diagnostic {
	out := append(c.diags, c.readOnlyChanged(&c.cap)...)
	out = append(out, c.cap.Summaries()...)
	ast.SortDiagnostics(out)
	return out
}

// parsedPathRule returns the path rule's breaches among a parser's
// diagnostics, and the codes of those it summed up past MaxPerCode
// (grammar.IsOverflow).
func parsedPathRule(parsed []*ast.Diagnostic) (static map[staticKey]bool, summed map[string]bool) {
	static, summed = map[staticKey]bool{}, map[string]bool{}
	for _, d := range parsed {
		switch d.Code {
		case CodeAbsolutePath, CodePathEscapes, CodeBadPath, CodeURLNotAllowed, CodeNotAFile:
			static[staticKey{d.Span.Start.Offset, d.Span.End.Offset, d.Code}] = true
			summed[d.Code] = summed[d.Code] || grammar.IsOverflow(d)
		}
	}
	return static, summed
}

// vfile is what the checker knows about one path.
type vfile struct {
	exists  bool
	dir     bool
	known   bool // content is known
	content string
	size    int64
	problem string // why the content is unknown
	large   bool   // the problem is only the size limit
	// unstat: the path could not even be looked at (problem says why), so
	// whether a file is there is unknown; exists is set to be safe.
	unstat bool
	// unusable says why no file can be at this path (the operating
	// system's error: a name too long, too many symbolic links, a file
	// where a directory is needed); exists is false.
	unusable string
	// by is the action that last produced this state (nil: the disk), and
	// how says what it did ("created", "edited", …).
	by  *ast.Action
	how string
	doc int // the document of by
	// origin is the path whose disk file this content descends from
	// (through edits and moves), "" for a file the plan wrote afresh.
	origin string
	// readOnly is set on the disk state of a regular file whose mode
	// lacks the owner's write bit; perm is then its permission bits.
	readOnly bool
	perm     fs.FileMode
	// link is the target text when the entry is a symbolic link (on disk,
	// or moved here by an action): exists is set, the content unknown.
	link string
}

// textOf returns the text to edit f's content with.
func (c *checker) textOf(f *vfile) *text { return newText(f.content, c.work) }

// ValidateRoot reports why dir cannot be a workspace root (it does not
// exist or is not a directory), or nil. `plangram check --root` calls it
// first so that a bad root is a usage error, not a diagnostic per file.
func ValidateRoot(dir string) error {
	_, err := ResolveRoot(dir)
	return err
}

// ResolveRoot returns root absolute, with its symbolic links resolved, or
// the error ValidateRoot reports for it.
func ResolveRoot(root string) (string, error) {
	if root == "" {
		return "", errors.New("workspace root is empty")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("workspace root %q: %w", root, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("workspace root %q: %w", root, unwrapPathError(err))
	}
	st, err := os.Stat(resolved)
	if err != nil {
		return "", fmt.Errorf("workspace root %q: %w", root, unwrapPathError(err))
	}
	if !st.IsDir() {
		return "", fmt.Errorf("workspace root %q is not a directory", root)
	}
	return resolved, nil
}

// newChecker returns a checker for root; begin starts each document.
func newChecker(root string, opts Options) (*checker, error) {
	resolved, err := ResolveRoot(root)
	if err != nil {
		return nil, err
	}
	limit := opts.MaxFileSize
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	fsys, err := rootfs.Open(resolved, false)
	if err != nil {
		return nil, fmt.Errorf("workspace root %q: %w", root, unwrapPathError(err))
	}
	return &checker{root: resolved, fsys: fsys, nameMax: nameMax(resolved), maxSize: limit, strict: opts.Strict,
		o: map[string]*entry{}, stats: map[string]lstatResult{}, src: opts.Source, work: &budget{floor: budgetFloor}}, nil
}

// begin starts checking document i with its schema and effects.
func (c *checker) begin(i int, doc *ast.Document, opts Options) {
	s := opts.Schema
	if s == nil {
		s, _ = schema.Builtin(doc.Dialect) // nil for a dialect without one
	}
	eff := opts.Effects
	if eff == nil {
		eff = DefaultEffects()
	}
	c.doc, c.schema, c.effects, c.diags, c.ran = i, s, eff, nil, nil
	c.cap = grammar.Cap{Silenced: opts.Silenced}
	c.parsedStatic, c.parsedSummed = parsedPathRule(doc.Diagnostics)
	c.seen = 0
	c.tally = Tally{}
	if c.nl = docNewline(doc); c.nl == "" {
		if j := bytes.IndexByte(c.src, '\n'); j >= 0 {
			c.nl = lexer.FirstLineEnding(string(c.src[max(j-1, 0) : j+1]))
		}
	}
}

func unwrapPathError(err error) error {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err
	}
	return err
}

// pathArg is one path value of an action with where it was written.
type pathArg struct {
	param string
	value string
	span  *ast.Span // the param's (or the action name's): an element of a list shares its list's
	rel   string    // resolved slash path relative to the root, "" when unusable
	ok    bool
	// resource: the parameter's type is resource, which may be a URL.
	resource bool
}

// action checks one action and applies its effect to the overlay.
func (c *checker) action(ctx context.Context, a *ast.Action) {
	if end := a.Span.End.Offset; end > c.seen {
		c.work.pay(end - c.seen)
		c.seen = end
	}
	if c.stopped {
		return
	}
	defer c.overBudget(a)
	c.aaHit, c.aaMiss = 0, 0 // what the action's edits find
	op, paths, target := c.actionPaths(a)
	c.effect(ctx, a, op, paths, target)
	c.endAction(op)
}

// actionPaths resolves and checks the path arguments of a (the first part
// of action) and returns a's effect, the paths it keeps and its target.
func (c *checker) actionPaths(a *ast.Action) (Op, []pathArg, *pathArg) {
	op := c.effects[a.Name]
	// The path arguments one by one: each is resolved and checked, and
	// only those the effect uses are kept (the first, the target; all for
	// a move or a patch, which have a few): a list of many paths (INVOKE's
	// handoff resources) is not held.
	keepAll := op == OpMove || op == OpPatch
	paths := c.pathBuf[:0]
	idx := 0
	for p := range eachPathArg(c.schema, a) {
		entry := entryMode(op, idx, p.param)
		idx++
		c.resolvePath(&p, a, !entry)
		if p.ok {
			p.ok = c.usable(&p, a)
		}
		if op != OpRun && op != OpNone && p.ok && p.param != "cwd" && schema.NamesDirectory(p.value) {
			c.dirSyntax(a, &p, op)
		}
		// A delete or move acts on a link itself, and so does an
		// update_file without hunks (a rename).
		if p.ok && entry && (idx > 1 || op != OpDelete && op != OpMove && (op != OpPatch || hasHunks(a))) {
			p.ok = !c.onLink(a, &p, idx > 1)
		}
		if keepAll || len(paths) == 0 {
			paths = append(paths, p)
		}
	}
	c.pathBuf = paths
	var target *pathArg
	if len(paths) > 0 && paths[0].param != "cwd" {
		target = &paths[0]
	}
	return op, paths, target
}

// entryMode reports whether path argument idx (from 0) of an action of op
// names an entry the action changes (the target of a write, edit, delete
// or move, a move's destination): a symbolic link there is the entry
// itself, never followed. Other paths (a read's, a command's cwd, those of
// actions that only name paths) follow a link that stays inside the root.
func entryMode(op Op, idx int, param string) bool {
	if param == "cwd" {
		return false
	}
	switch idx {
	case 0:
		return op != OpNone && op != OpRun && op != OpRead
	case 1:
		return op == OpMove || op == OpPatch
	}
	return false
}

// onLink reports, as CodeBeyondSymlink, a path that an action writes a
// file at (the target of a write, append, edit, create or patch; a move's
// or patch's destination) when a symbolic link is there, on disk or moved
// there by an earlier action, or was there on disk before an earlier
// action removed it: apply never writes through a link, and a link is not
// replaced by a file within one plan (Change.Link describes only a link
// deleted or moved). dest says p is a move's destination.
func (c *checker) onLink(a *ast.Action, p *pathArg, dest bool) bool {
	f := c.file(p.rel)
	disk := c.find(p.rel).disk // c.file looked at it
	if f.exists && f.link != "" && f.by == nil {
		// A link on disk that leads out of the root, or nowhere (a
		// loop), is said as the path rule says it of a link on the way.
		switch w := c.walk(p.value, true); w.res {
		case walkEscapes:
			c.add(ast.Error, CodePathEscapes, *p.span,
				"%s path %q leaves the project root through the symbolic link %q", a.Name, p.value, w.link)
			return true
		case walkUnusable:
			c.add(ast.Error, CodePathUnusable, *p.span,
				"%s path %q cannot be used: the symbolic link %q cannot be resolved: %s", a.Name, p.value, w.link, w.why)
			return true
		}
	}
	switch {
	case f.exists && f.link != "" && dest:
		d := c.add(ast.Error, CodeBeyondSymlink, *p.span,
			"%s moves a file onto %s, which is a symbolic link (to %q): a link is not replaced by a file within one plan, and apply never writes through one; delete the link in a plan of its own first",
			a.Name, p.value, f.link)
		d.Related = related(f, p.value)
	case f.exists && f.link != "":
		where := "a symbolic link"
		if f.by != nil {
			where = "the symbolic link " + describe(f.by) + " " + f.how + " there"
		}
		d := c.add(ast.Error, CodeBeyondSymlink, *p.span,
			"%s writes %s, which is %s (to %q): apply never writes through a symbolic link, as git apply refuses a path beyond one; write the path the link stands for",
			a.Name, p.value, where, f.link)
		d.Related = related(f, p.value)
	case disk != nil && disk.link != "":
		verb := "writes"
		if dest {
			verb = "moves a file onto"
		}
		d := c.add(ast.Error, CodeBeyondSymlink, *p.span,
			"%s %s %s, where a symbolic link (to %q) was until %s %s: a symbolic link is not replaced by a file within one plan; apply this part as a second plan",
			a.Name, verb, p.value, disk.link, describe(f.by), gone(f.how))
		d.Related = related(f, p.value)
	default:
		return false
	}
	return true
}

// effect checks a's effect op on the overlay, with the paths and target
// of actionPaths (the second part of action).
func (c *checker) effect(ctx context.Context, a *ast.Action, op Op, paths []pathArg, target *pathArg) {
	switch op {
	case OpRun:
		c.ran = a
		return
	case OpNone:
		return
	}
	if target == nil || !target.ok {
		return
	}
	switch op {
	case OpWrite, OpWriteKeepEnd:
		c.write(a, target, op == OpWriteKeepEnd)
	case OpAppend:
		c.appendTo(a, target)
	case OpEdit, OpReplaceAll:
		c.edit(ctx, a, target, op == OpReplaceAll)
	case OpRead:
		c.read(a, target)
	case OpDelete:
		c.deleteFile(a, target)
	case OpMove:
		c.move(a, paths)
	case OpCreate:
		c.create(a, target)
	case OpSearchReplace:
		c.searchReplace(ctx, a, target)
	case OpPatch:
		c.patch(ctx, a, paths)
	case OpReplaceInFile:
		c.replaceInFile(ctx, a, target)
	}
}

// dirSyntax reports a file action's path that names a directory by its
// spelling (schema.NamesDirectory): an error for an action that changes
// the file (the executor would fail, or write a file under the name
// without its slash), a warning for one that reads it, as for a directory
// on disk. The path is not used further. The edit formats' parsers report
// the error already (every path of theirs is a file's); it is said once.
func (c *checker) dirSyntax(a *ast.Action, p *pathArg, op Op) {
	p.ok = false
	format, args := "%s %s %q ends with %s, so it names a directory, not a file", []any{a.Name, p.param, p.value, schema.DirectoryEnding(p.value)}
	if op == OpRead {
		c.add(ast.Warning, CodeNotAFile, *p.span, format, args...)
		return
	}
	c.addPath(CodeNotAFile, *p.span, format, args...)
}

// eachPathArg yields an action's path values, in schema order, read with
// schema s (nil: every action is unknown): parameters of type path or
// resource (and lists of them), or, for an action the schema does not
// know, the parameters named like paths. It yields them one by one: a
// rule that needs one at a time holds none of a list of many.
func eachPathArg(s *schema.Schema, a *ast.Action) iter.Seq[pathArg] {
	return func(yield func(pathArg) bool) {
		var def *schema.Action
		if s != nil {
			def = s.Lookup(a.Name)
		}
		// Empty values are kept: the path rule reports them (bad-path).
		add := func(p ast.Param, v any, resource bool) bool {
			span := &a.NameSpan
			if p.Span != nil {
				span = p.Span
			}
			one := func(s string) bool {
				return yield(pathArg{param: p.Name, value: strings.TrimSpace(s), span: span, resource: resource})
			}
			switch v := v.(type) {
			case string:
				return one(v)
			case []string:
				for _, s := range v {
					if !one(s) {
						return false
					}
				}
			case []any:
				for _, x := range v {
					if s, ok := x.(string); ok && !one(s) {
						return false
					}
				}
			}
			return true
		}
		if def == nil {
			for _, p := range a.Params {
				switch p.Name {
				case "path", "file_path", "cwd", "src", "dest", "resource":
					if !add(p, p.Value, p.Name == "resource") {
						return
					}
				}
			}
			return
		}
		for _, sp := range def.Params {
			if t := sp.ItemType(); t != schema.Path && t != schema.Resource {
				continue // not a parameter of project paths
			}
			for _, p := range a.Params {
				if p.Name == sp.Name && !add(p, p.Value, sp.TypeOrDefault() == schema.Resource || sp.Items == schema.Resource) {
					return
				}
			}
		}
	}
}

// gone says what an action did to a file that is no longer there.
func gone(how string) string {
	if how == "moved away" {
		return "moved it away"
	}
	return how + " it"
}

// describe names an action for messages: "EDIT at line 12".
func describe(a *ast.Action) string {
	return fmt.Sprintf("%s at line %d", a.Name, a.NameSpan.Start.Line)
}

// related points back at the action that produced a file's state.
func related(f *vfile, rel string) []ast.Related {
	if f == nil || f.by == nil {
		return nil
	}
	return []ast.Related{{Message: fmt.Sprintf("%s %s here", rel, f.how), Span: f.by.NameSpan}}
}

// add reports a diagnostic. Past MaxPerCode of its code in the document
// it is only counted (cap): the diagnostic returned, which the caller may
// still fill in, is then not kept.
func (c *checker) add(sev ast.Severity, code string, span ast.Span, format string, args ...any) *ast.Diagnostic {
	if !c.cap.Take(sev, code, span, "") {
		return &ast.Diagnostic{Severity: sev, Code: code, Span: span}
	}
	d := &ast.Diagnostic{Severity: sev, Code: code, Message: fmt.Sprintf(format, args...), Span: span}
	c.diags = append(c.diags, d)
	return d
}

// file returns what is known of the path: the overlay, else the disk.
func (c *checker) file(rel string) *vfile {
	if e := c.find(rel); e != nil && e.cur != nil {
		f := e.cur
		if !f.exists && f.unusable == "" && e.below > 0 {
			// looked at while missing; since then an action created
			// files below it, so it is a directory now
			return &vfile{exists: true, dir: true}
		}
		return f
	}
	f := &vfile{}
	// Lstat: a symbolic link is an entry of its own; a path that follows
	// one was resolved by walk, which found no link on the way. Only what
	// is read of a file goes through c.fsys (the type and size a race
	// falsifies make no read leave the root).
	st, err := c.lstat(filepath.Join(c.root, filepath.FromSlash(rel)))
	switch {
	case err != nil && errors.Is(err, os.ErrNotExist):
		// missing; a directory the plan created files under still counts
		if c.overlayDir(rel) {
			f.exists, f.dir = true, true
		}
	case errors.Is(err, syscall.ENAMETOOLONG) || errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR):
		// no file can ever be at this path, whatever a plan does (a name
		// too long, a loop of symbolic links, a file where a directory is
		// needed)
		f.unusable = unwrapPathError(err).Error()
	case err != nil:
		// it may or may not exist (a directory that cannot be searched)
		f.exists, f.unstat, f.problem = true, true, unwrapPathError(err).Error()
	case st.IsDir():
		f.exists, f.dir = true, true
	case st.Mode()&fs.ModeSymlink != 0:
		// The link itself (a delete or move acts on it); never opened.
		var target string
		dir, base := rootfs.Split(rel)
		rootfs.WithDir(c.fsys, dir, func(d rootfs.Dir) (err error) {
			target, err = d.Readlink(base)
			return err
		})
		target = cmp.Or(target, "?") // unreadable: no link's target is empty
		f.exists, f.link = true, target
		f.problem = fmt.Sprintf("it is a symbolic link (to %q)", target)
	case !st.Mode().IsRegular():
		// Not even opened: opening a device can have effects of its own.
		f.exists, f.problem = true, fmt.Sprintf("it is %s, not a regular file", fileKind(st.Mode()))
	default:
		f.exists = true
		data, err := readRegularIn(c.fsys, rel, c.maxSize)
		var big *tooLargeError
		switch {
		case errors.As(err, &big):
			f.size, f.large = big.size, true
			f.problem = err.Error()
		case err != nil:
			f.problem = unwrapPathError(err).Error()
		default:
			f.known, f.content, f.size = true, data, int64(len(data))
			c.closestAllow += len(data)
			c.work.pay(len(data))
		}
		if perm := st.Mode().Perm(); perm&0o200 == 0 {
			f.readOnly, f.perm = true, perm
		}
	}
	if f.exists && !f.dir {
		f.origin = rel
	}
	e := c.intern(rel)
	if f.readOnly {
		c.readOnly = append(c.readOnly, e)
	}
	e.disk = f // never changed in place: actions set new vfiles
	c.set(rel, f)
	return f
}

// overlayDir reports whether an earlier action created a file below rel.
func (c *checker) overlayDir(rel string) bool {
	if rel == "." {
		return true
	}
	e := c.find(rel)
	return e != nil && e.below > 0
}

// set records the new state of rel in the overlay and keeps c.below up to
// date: one step per directory level of rel.
func (c *checker) set(rel string, f *vfile) {
	e := c.intern(rel)
	if d := btoi(f.exists && f.by != nil && !f.dir) - btoi(e.created()); d != 0 {
		for j := 0; j < len(rel); j++ {
			if rel[j] == '/' {
				c.intern(rel[:j]).below += d
			}
		}
	}
	if f.by != nil {
		f.doc = c.doc
		c.aaMiss++
	}
	e.cur = f
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// needFile returns the existing regular file at target, or reports why
// there is none (missing, a directory) and returns nil.
func (c *checker) needFile(a *ast.Action, t *pathArg, verb string) *vfile {
	f := c.file(t.rel)
	switch {
	case !f.exists:
		sev, tail := ast.Error, ""
		if c.ran != nil && !c.strict {
			sev = ast.Warning
			tail = fmt.Sprintf(" (unless the command of %s creates it)", describe(c.ran))
		}
		why := "no such file in the workspace"
		if f.by != nil {
			why = describe(f.by) + " " + gone(f.how)
		}
		d := c.add(sev, CodeFileNotFound, *t.span, "%s cannot %s %s: %s%s", a.Name, verb, t.value, why, tail)
		d.Related = related(f, t.value)
		return nil
	case f.dir:
		sev := ast.Error
		if verb == "read" {
			sev = ast.Warning
		}
		c.add(sev, CodeNotAFile, *t.span, "%s cannot %s %s: it is a directory, not a file", a.Name, verb, t.value)
		return nil
	}
	return f
}

func (c *checker) read(a *ast.Action, t *pathArg) {
	// A file over the size limit can still be read; one that cannot be
	// opened cannot.
	if f := c.needFile(a, t, "read"); f != nil && !f.known && f.problem != "" && !f.large {
		c.add(ast.Warning, CodeFileUnreadable, *t.span, "%s: %s cannot be checked: %s", a.Name, t.value, f.problem)
	}
}

func (c *checker) write(a *ast.Action, t *pathArg, keepEnd bool) {
	f := c.file(t.rel)
	content, hasContent := a.Params.Get("content")
	text, _ := content.(string)
	text = c.endLine(a, text)
	if keepEnd && f.known && text != "" && !strings.HasSuffix(text, "\n") {
		switch {
		case strings.HasSuffix(f.content, "\r\n"):
			text += "\r\n"
		case strings.HasSuffix(f.content, "\n"):
			text += "\n"
		}
	}
	if f.dir {
		c.add(ast.Error, CodeNotAFile, *t.span, "%s cannot write %s: it is a directory", a.Name, t.value)
		return
	}
	if hasContent && f.exists && f.known && c.unchanged(f) && f.content == text {
		// Written before: the same content again is no change.
		c.applied(a, f, t.value, *t.span, "%s: %s already holds this content (%s); it is not written again", a.Name, t.value, number.Plural(int64(len(text)), "byte"))
		return
	}
	if f.unstat {
		c.add(ast.Warning, CodeFileUnreadable, *t.span, "%s: cannot tell whether %s exists: %s", a.Name, t.value, f.problem)
	} else if f.exists && !flag(a.Params, "overwrite") {
		fix := ""
		sev := ast.Warning
		if c.hasParam(a, "overwrite") {
			fix = "; set Overwrite: true if that is intended, or EDIT the file"
			if c.strict {
				// The action says it does not overwrite (the
				// default): apply keeps the file.
				sev = ast.Error
				fix = "; apply replaces a file only when the action says Overwrite: true: set it if that is intended, or EDIT the file"
			}
		}
		what := fmt.Sprintf("the existing file %s (%s)", t.value, number.Plural(f.size, "byte"))
		if f.by != nil {
			what = fmt.Sprintf("%s, which %s %s", t.value, describe(f.by), f.how)
		}
		d := c.add(sev, CodeFileExists, *t.span, "%s replaces %s%s", a.Name, what, fix)
		d.Related = related(f, t.value)
	}
	nf := &vfile{exists: true, by: a, how: "created"}
	if hasContent {
		nf.known, nf.content, nf.size = true, text, int64(len(text))
	}
	c.set(t.rel, nf)
}

func (c *checker) appendTo(a *ast.Action, t *pathArg) {
	f := c.file(t.rel)
	if f.dir {
		c.add(ast.Error, CodeNotAFile, *t.span, "%s cannot append to %s: it is a directory", a.Name, t.value)
		return
	}
	content, _ := a.Params.Get("content")
	text, _ := content.(string)
	text = c.endLine(a, text)
	nf := &vfile{exists: true, by: a, how: "appended to", origin: f.origin}
	switch {
	case !f.exists:
		nf.known, nf.content, nf.how = true, text, "created"
	case f.known:
		buf := c.textOf(f)
		buf.Replace(buf.Len(), buf.Len(), text)
		nf.known, nf.content = true, buf.String()
	default:
		nf.problem = f.problem
	}
	nf.size = int64(len(nf.content))
	c.set(t.rel, nf)
}

func (c *checker) move(a *ast.Action, paths []pathArg) {
	if len(paths) == 0 || !paths[0].ok {
		return
	}
	src := &paths[0]
	f := c.needFile(a, src, "move")
	if f == nil || len(paths) < 2 || !paths[1].ok {
		return
	}
	dst := &paths[1]
	if dst.rel == src.rel {
		// a rename onto itself changes nothing (carried out as "write the
		// destination, delete the source" it would delete the file)
		c.add(ast.Warning, CodeMoveOntoItself, *dst.span, "%s moves %s onto itself (%s): nothing to do", a.Name, src.value, dst.value)
		return
	}
	if d := c.file(dst.rel); d.dir {
		c.add(ast.Error, CodeNotAFile, *dst.span, "%s cannot move %s to %s: the destination is a directory", a.Name, src.value, dst.value)
		return
	} else if d.exists {
		diag := c.add(ast.Warning, CodeFileExists, *dst.span, "%s replaces the existing file %s", a.Name, dst.value)
		diag.Related = related(d, dst.value)
	}
	moved := *f
	moved.by, moved.how = a, "moved"
	c.set(dst.rel, &moved)
	c.set(src.rel, &vfile{by: a, how: "moved away"})
}

// hasParam reports whether the action's schema declares the parameter.
func (c *checker) hasParam(a *ast.Action, name string) bool {
	if c.schema == nil {
		return false
	}
	def := c.schema.Lookup(a.Name)
	return def != nil && def.Param(name) != nil
}

// flag reads a boolean parameter written as a bool or a string.
func flag(ps ast.Params, name string) bool {
	v, _ := ps.Get(name) // nil when missing
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(strings.Trim(strings.TrimSpace(v), "`"), "true")
	}
	return false
}
