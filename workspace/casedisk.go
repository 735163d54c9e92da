package workspace

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/rootfs"
)

// MaxDirNames bounds the entries CaseCollisions reads from one directory
// of the root: past it the directory's other names are not compared, and
// an info diagnostic says so.
const MaxDirNames = 1 << 16

// caseDisk compares a plan's paths with the names already on disk under
// the root: a path that is spelt like an existing file or directory but
// for letter case (or Unicode normalization) names it on macOS and
// Windows, and another file on Linux. Each directory is read once, when a
// path of the plan first goes through it (directories no path goes
// through are never read), and only the directories the plan reaches by
// the names the disk spells as the plan does; symbolic links are never
// followed and nothing but directories is opened.
type caseDisk struct {
	root     string
	fsys     rootfs.Root         // nil until the first directory is read
	dirs     map[string]*caseDir // by exact relative path ("" the root); nil: not a readable directory
	reported map[string]bool     // the plan names reported
	maxNames int                 // MaxDirNames (tests set less)
	reads    int                 // directories read (tests)
}

// caseDir is what one directory holds: the first name of each folded
// name (Linux allows `README.md` and `readme.md` side by side), and each
// name. Whether a name is a directory is learnt by listing it, when a path
// goes through it (list is nil for anything else).
type caseDir struct {
	byFold map[string]string
	names  map[string]bool
}

// SetRoot makes c compare each path, and each directory on it, with the
// names already in the directory root too (docs/check.md,
// "case-collision"): a path spelt like an existing file or directory but
// for case is reported, one that names it exactly is not.
func (c *CaseCollisions) SetRoot(root string) {
	c.disk = &caseDisk{root: root, dirs: map[string]*caseDir{}, reported: map[string]bool{}, maxNames: MaxDirNames}
}

// fold returns a name's folded form.
func (c *CaseCollisions) fold(name string) string {
	c.buf = foldPath(c.buf[:0], name)
	return string(c.buf)
}

// check compares the cleaned path exact of parameter p with the disk,
// component by component, and reports the first that the disk spells
// otherwise. It returns whether that path was reported (now or before).
func (d *caseDisk) check(c *CaseCollisions, a *ast.Action, p pathArg, exact string) bool {
	dir := "" // the root
	for end, comp := range components(exact) {
		last := end == len(exact)
		l := d.list(c, dir, *p.span)
		if l == nil {
			return false
		}
		n, ok := l.byFold[c.fold(comp)]
		if !ok || l.names[comp] && last {
			return false // not on disk in any spelling (nor is anything below it), or named exactly
		}
		if l.names[comp] {
			dir = exact[:end]
			continue
		}
		name := exact[:end]
		if d.reported[name] {
			return true // this spelling was reported where it first came
		}
		d.reported[name] = true
		quote := quoteValue
		if norm.NFC.String(comp) == norm.NFC.String(n) {
			// Only the normalization differs: the names look alike, so
			// they are quoted with their non-ASCII characters escaped.
			quote = func(v string) string { return fmt.Sprintf("%+q", v) }
		}
		what := quote(p.value)
		if !last {
			what += " (its directory " + quote(name) + ")"
		}
		onDisk := rootfs.Join(dir, n)
		kind := "file"
		if st, err := os.Lstat(filepath.Join(d.root, filepath.FromSlash(onDisk))); err == nil && st.IsDir() {
			kind = "directory"
		}
		c.keep(&ast.Diagnostic{
			Severity: ast.Warning, Code: CodeCaseCollision, Span: *p.span,
			Message: fmt.Sprintf("%s's %s %s and the %s %s already in the workspace differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same %s; write the path as the workspace spells it",
				a.Name, p.param, what, kind, quote(onDisk), kind),
		})
		return true
	}
	return false
}

// list returns what directory dir (relative to the root, "" the root)
// holds, reading it the first time: at most maxNames entries (an info says
// when there were more); nil when it is not a directory that can be read.
// It opens nothing but a directory, through one handle on the root (rootfs:
// no symbolic link on the way, nothing out of the root, no named pipe
// opened in a directory's place), made at the first read and closed by
// Diagnostics.
func (d *caseDisk) list(c *CaseCollisions, dir string, span ast.Span) *caseDir {
	if l, ok := d.dirs[dir]; ok {
		return l
	}
	d.dirs[dir] = nil
	if d.fsys == nil {
		r, err := rootfs.Open(d.root, false)
		if err != nil {
			return nil
		}
		d.fsys = r
	}
	var names []string
	err := rootfs.WithDir(d.fsys, dir, func(dd rootfs.Dir) (err error) {
		names, err = dd.Names(d.maxNames + 1)
		return err
	})
	if err != nil && len(names) == 0 {
		return nil // what was read before an error is compared
	}
	d.reads++
	l := &caseDir{byFold: map[string]string{}, names: map[string]bool{}}
	for _, name := range names[:min(len(names), d.maxNames)] {
		if !utf8.ValidString(name) {
			continue // no plan path (valid UTF-8) folds like it
		}
		l.names[name] = true
		if f := c.fold(name); l.byFold[f] == "" {
			l.byFold[f] = name
		}
	}
	if len(names) > d.maxNames {
		c.keep(&ast.Diagnostic{
			Severity: ast.Info, Code: CodeCaseCollision, Span: span,
			Message: fmt.Sprintf("the directory %s in the workspace has more than %d entries: the names after the first %d were not compared for case with the plan's paths", quoteValue(cmp.Or(dir, ".")), d.maxNames, d.maxNames),
		})
	}
	d.dirs[dir] = l
	return l
}
