package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// resolvePath checks one path value: a resource's URL is skipped; the path
// rule every dialect shares (schema.CheckPath: empty, control characters,
// absolute, `..` above the root) is applied, then the path is resolved on
// disk, where a symbolic link may lead out of the root. A usable path gets
// its slash form relative to the root in p.rel.
func (c *checker) resolvePath(p *pathArg, a *ast.Action) {
	v := p.value
	if p.resource && schema.IsURL(v) {
		return
	}
	what := "path"
	if p.param == "cwd" {
		what = "cwd"
	}
	var pe *schema.PathError
	if err := schema.CheckPath(v); errors.As(err, &pe) {
		switch pe.Code {
		case CodeAbsolutePath:
			c.addPath(CodeAbsolutePath, p.span,
				"%s %s %q is absolute; paths in a plan are relative to the project root", a.Name, what, v)
		case CodePathEscapes:
			c.addPath(CodePathEscapes, p.span,
				"%s %s %q leaves the project root (`..` goes above it)", a.Name, what, v)
		default:
			c.addPath(pe.Code, p.span, "%s %s: %s", a.Name, what, pe.Msg)
		}
		return
	}
	rel, link, ok := c.walk(v)
	if !ok {
		if link != "" {
			c.add(ast.Error, CodePathEscapes, p.span,
				"%s %s %q leaves the project root through the symbolic link %q", a.Name, what, v, link)
		} else {
			c.add(ast.Error, CodePathEscapes, p.span,
				"%s %s %q leaves the project root (`..` goes above it)", a.Name, what, v)
		}
		return
	}
	p.rel, p.ok = rel, true
}

// addPath reports a breach of the static path rule unless the parser
// already reported it at the same place with the same code (the document's
// own diagnostics): `check --root` says it once.
func (c *checker) addPath(code string, span ast.Span, format string, args ...any) {
	if c.static[staticKey{span.Start.Offset, span.End.Offset, code}] {
		return
	}
	c.add(ast.Error, code, span, format, args...)
}

// staticKey identifies a parser diagnostic of the path rule.
type staticKey struct {
	start, end int
	code       string
}

// walk resolves v component by component the way the operating system
// would when the plan runs: a symbolic link is followed (filepath.EvalSymlinks
// on the existing prefix) and `..` goes to the parent of what the prefix
// resolved to. Components that do not exist yet are taken lexically. It
// returns the slash path relative to the root, or ok=false when the path
// leaves the root at any step (with the offending link, if one was).
func (c *checker) walk(v string) (rel, link string, ok bool) {
	cur := c.root
	exists := true // cur exists on disk
	var done []string
	for _, part := range strings.Split(v, "/") {
		if part == "" || part == "." {
			continue
		}
		done = append(done, part)
		if part == ".." {
			cur = filepath.Dir(cur)
			if !within(c.root, cur) {
				return "", "", false
			}
			continue
		}
		next := filepath.Join(cur, part)
		if exists {
			fi, err := os.Lstat(next)
			if err != nil {
				exists = false
			} else if fi.Mode()&os.ModeSymlink != 0 {
				resolved, err := filepath.EvalSymlinks(next)
				if err != nil { // a dangling link: judge its target lexically
					target, rerr := os.Readlink(next)
					if rerr != nil {
						return "", strings.Join(done, "/"), false
					}
					if !filepath.IsAbs(target) {
						target = filepath.Join(cur, target)
					}
					resolved = filepath.Clean(target)
					exists = false
				}
				if !within(c.root, resolved) {
					return "", strings.Join(done, "/"), false
				}
				next = resolved
			}
		}
		cur = next
	}
	r, err := filepath.Rel(c.root, cur)
	if err != nil {
		return "", "", false
	}
	return filepath.ToSlash(r), "", true
}

// within reports whether p is root or below it (both cleaned, absolute).
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../")
}
