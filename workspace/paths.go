package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// resolvePath checks one path value: a resource's URL is skipped; the path
// rule every dialect shares (schema.CheckPath: empty, control characters,
// absolute, `..` above the root) is applied, then the names' lengths
// (c.nameMax), then the path is resolved on disk (walk), where a
// symbolic link may lead out of the root or anywhere inside it. follow
// says whether a symbolic link as the path's last component is followed
// (a read) or is itself the entry the action names (a write, delete or
// move: entryMode). A usable path gets its slash form relative to the root
// in p.rel.
func (c *checker) resolvePath(p *pathArg, a *ast.Action, follow bool) {
	v := p.value
	if p.resource && schema.IsURL(v) {
		return
	}
	what := p.what()
	if pe, ok := errors.AsType[*schema.PathError](schema.CheckPath(v)); ok {
		switch pe.Code {
		case CodeAbsolutePath:
			c.addPath(CodeAbsolutePath, *p.span,
				"%s %s %q is absolute; paths in a plan are relative to the project root", a.Name, what, v)
		case CodePathEscapes:
			c.addPath(CodePathEscapes, *p.span,
				"%s %s %q leaves the project root (`..` goes above it)", a.Name, what, v)
		default:
			c.addPath(pe.Code, *p.span, "%s %s: %s", a.Name, what, pe.Msg)
		}
		return
	}
	for name := range strings.SplitSeq(v, "/") {
		if len(name) > c.nameMax {
			c.add(ast.Error, CodeNameTooLong, *p.span,
				"%s %s %q cannot be used: its name %q is %d bytes long, more than the %d the file system of the root allows for one name, so no file can have it",
				a.Name, what, v, preview(name, 40), len(name), c.nameMax)
			return
		}
	}
	if n := len(c.root) + 1 + len(v); n > maxPathLen {
		// No system call takes it (ENAMETOOLONG), and resolving it
		// component by component would cost its length squared.
		c.add(ast.Error, CodePathUnusable, *p.span, "%s %s cannot be used: with the root it is %d bytes long, more than the %d a file system accepts",
			a.Name, what, n, maxPathLen)
		return
	}
	w := c.walk(v, follow)
	switch w.res {
	case walkUnusable:
		c.add(ast.Error, CodePathUnusable, *p.span,
			"%s %s %q cannot be used: the symbolic link %q cannot be resolved: %s", a.Name, what, v, w.link, w.why)
		return
	case walkEscapes:
		if w.link != "" {
			c.add(ast.Error, CodePathEscapes, *p.span,
				"%s %s %q leaves the project root through the symbolic link %q", a.Name, what, v, w.link)
		} else {
			c.add(ast.Error, CodePathEscapes, *p.span,
				"%s %s %q leaves the project root (`..` goes above it)", a.Name, what, v)
		}
		return
	case walkBeyond:
		c.add(ast.Error, CodeBeyondSymlink, *p.span,
			"%s %s %q goes through the symbolic link %q (to %q): a path beyond a symbolic link is refused, as git apply refuses it, since the link could lead anywhere (into .git, out of the root); write the path the link stands for",
			a.Name, what, v, w.link, w.target)
		return
	}
	p.rel, p.ok = w.rel, true
}

// what names the kind of path p is in messages: "cwd" or "path".
func (p *pathArg) what() string {
	if p.param == "cwd" {
		return "cwd"
	}
	return "path"
}

// addPath reports a breach of the static path rule unless the parser
// already reported it at the same place with the same code, or summed up
// its code (it then counted it): `check --root` says it once.
func (c *checker) addPath(code string, span ast.Span, format string, args ...any) {
	if !c.parsedStatic[staticKey{span.Start.Offset, span.End.Offset, code}] && !c.parsedSummed[code] {
		c.add(ast.Error, code, span, format, args...)
	}
}

// staticKey identifies a parser diagnostic of the path rule.
type staticKey struct {
	start, end int
	code       string
}

// walkResult says what walk found of a path.
type walkResult int

const (
	// walkOK: the path is usable; walked.rel is its slash path.
	walkOK walkResult = iota
	// walkEscapes: the path leaves the root through `..` or through the
	// symbolic link walked.link.
	walkEscapes
	// walkBeyond: the path goes through the symbolic link walked.link,
	// whose target (walked.target) is inside the root.
	walkBeyond
	// walkUnusable: the symbolic link walked.link cannot be resolved (a
	// loop); walked.why says why.
	walkUnusable
)

// walked is what walk found.
type walked struct {
	res               walkResult
	rel               string
	link, target, why string
}

// walk resolves v component by component the way the operating system
// would when the plan runs, but goes through no symbolic link: a link
// among the directories of the path is walkBeyond (walkEscapes when it
// leads out of the root, walkUnusable when it cannot be resolved), as git
// apply refuses a path "beyond a symbolic link". A link as the last
// component is followed when follow is set (a read: resolved with
// filepath.EvalSymlinks, which must stay inside the root), else it is the
// entry the path names (rel is the link's own path). `..` goes to the
// parent of the directory reached. Components that do not exist yet are
// taken lexically. It returns the slash path relative to the root.
func (c *checker) walk(v string, follow bool) walked {
	cur := c.root // resolved so far; exists unless a dangling link led here
	// tail holds the components below cur that do not exist: they are
	// taken lexically (a `..` removes the last), and the walk on disk
	// resumes when `..` has removed them all. Keeping them in a list, not
	// joined to cur one by one, keeps a long path linear.
	var tail []string
	n := 0 // components walked, for the name of a link
	components := slices.DeleteFunc(strings.Split(v, "/"), func(part string) bool { return part == "" || part == "." })
	for _, part := range components {
		n++
		if part == ".." {
			if len(tail) > 0 {
				tail = tail[:len(tail)-1]
				continue
			}
			cur = filepath.Dir(cur)
			if !within(c.root, cur) {
				return walked{res: walkEscapes}
			}
			continue
		}
		if len(tail) > 0 {
			tail = append(tail, part)
			continue
		}
		next := filepath.Join(cur, part)
		last := n == len(components)
		fi, err := c.lstat(next)
		if err != nil {
			tail = append(tail, part)
			continue
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if last && !follow {
			cur = next // the link itself is the entry
			continue
		}
		name := strings.Join(components[:n], "/")
		resolved, err := filepath.EvalSymlinks(next)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			why := unwrapPathError(err).Error()
			if strings.HasSuffix(why, "too many links") { // EvalSymlinks' own error
				why = "too many levels of symbolic links (a loop)"
			}
			return walked{res: walkUnusable, link: name, why: why}
		}
		target, rerr := os.Readlink(next)
		if err != nil { // a dangling link: judge its target lexically
			if rerr != nil {
				return walked{res: walkEscapes, link: name}
			}
			t := target
			if !filepath.IsAbs(t) {
				t = filepath.Join(cur, t)
			}
			resolved = filepath.Clean(t)
		}
		if !within(c.root, resolved) {
			return walked{res: walkEscapes, link: name}
		}
		if !last {
			return walked{res: walkBeyond, link: name, target: target}
		}
		cur = resolved
	}
	if len(tail) > 0 {
		cur = filepath.Join(cur, filepath.FromSlash(strings.Join(tail, "/")))
	}
	r, err := filepath.Rel(c.root, cur)
	if err != nil {
		return walked{res: walkEscapes}
	}
	return walked{rel: filepath.ToSlash(r)}
}

// lstat is os.Lstat of the absolute path p, remembered for the check:
// walk and file look at each path on disk once.
func (c *checker) lstat(p string) (fs.FileInfo, error) {
	r, ok := c.stats[p]
	if !ok {
		r.fi, r.err = os.Lstat(p)
		c.stats[p] = r
	}
	return r.fi, r.err
}

type lstatResult struct {
	fi  fs.FileInfo
	err error
}

// defaultNameMax is the longest name, in bytes, of the file systems in
// common use (Linux's NAME_MAX): the limit when the root's file system
// cannot be asked.
const defaultNameMax = 255

// within reports whether p is root or below it (both cleaned, absolute).
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../")
}

// maxPathLen is the longest path a system call accepts (Linux's PATH_MAX,
// terminating NUL included; macOS and the BSDs accept 1024, Windows'
// long paths 32767): a longer path is path-unusable before it is resolved.
const maxPathLen = 4096

// usable checks what the disk and the earlier actions say about the
// directories above a resolved path, and the path itself: every parent
// must be a directory (or not exist yet, then apply creates it), and the
// system must be able to look the path up. A parent that is a file — in
// the workspace, created by an earlier action, or a file an earlier action
// deleted or moved away (apply does not replace a file by a directory) —
// is CodeNotADirectory; an unusable path is CodePathUnusable. Each parent
// is looked at once per check (c.file caches it).
func (c *checker) usable(p *pathArg, a *ast.Action) bool {
	what := p.what()
	rel := p.rel
	for i := 0; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		dir := rel[:i]
		if c.isDir(dir) {
			continue
		}
		f := c.file(dir)
		if f.dir {
			continue
		}
		if f.unusable != "" {
			c.add(ast.Error, CodePathUnusable, *p.span, "%s %s %q cannot be used: %s: %s", a.Name, what, p.value, dir, f.unusable)
			return false
		}
		var d *ast.Diagnostic
		switch disk := c.find(dir).disk; { // c.file looked at it
		case f.exists && f.by != nil:
			d = c.add(ast.Error, CodeNotADirectory, *p.span, "%s %s %q goes through %s, which %s as a file, not a directory",
				a.Name, what, p.value, dir, describe(f.by)+" "+f.how)
		case f.exists:
			d = c.add(ast.Error, CodeNotADirectory, *p.span, "%s %s %q goes through %s, which is a file in the workspace, not a directory",
				a.Name, what, p.value, dir)
		case disk != nil && disk.exists && !disk.dir && f.by != nil:
			d = c.add(ast.Error, CodeNotADirectory, *p.span,
				"%s %s %q goes through %s, a file that %s: a file is not replaced by a directory in one plan; apply this part as a second plan",
				a.Name, what, p.value, dir, describe(f.by)+" "+f.how)
		default:
			return true // missing: everything below it is missing too
		}
		d.Related = related(f, dir)
		return false
	}
	if f := c.file(rel); f.unusable != "" {
		c.add(ast.Error, CodePathUnusable, *p.span, "%s %s %q cannot be used: %s", a.Name, what, p.value, f.unusable)
		return false
	}
	return true
}
