package workspace

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/plangram/plangram/ast"
)

// resolvePath checks one path value: URLs are skipped, absolute paths and
// paths that leave the root (by `..` or through a symbolic link) are
// reported; a usable path gets its slash form relative to the root in p.rel.
func (c *checker) resolvePath(p *pathArg, a *ast.Action) {
	v := p.value
	if isURL(v) {
		return
	}
	what := "path"
	if p.param == "cwd" {
		what = "cwd"
	}
	if isAbsolute(v) {
		c.add(ast.Error, CodeAbsolutePath, p.span,
			"%s %s %q is absolute; paths in a plan are relative to the project root", a.Name, what, v)
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

// isAbsolute reports a path that does not depend on the project root: a
// leading slash or backslash, a drive letter, or a home directory (~).
func isAbsolute(v string) bool {
	switch {
	case strings.HasPrefix(v, "/"), strings.HasPrefix(v, `\`), filepath.IsAbs(v):
		return true
	case v == "~", strings.HasPrefix(v, "~/"), strings.HasPrefix(v, `~\`):
		return true
	case len(v) >= 2 && v[1] == ':' && isLetter(v[0]):
		return true
	}
	return false
}

// isURL reports a value such as https://example.com/x (scheme "://").
func isURL(v string) bool {
	i := strings.Index(v, "://")
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		b := v[j]
		if !isLetter(b) && (j == 0 || !(b >= '0' && b <= '9' || b == '+' || b == '-' || b == '.')) {
			return false
		}
	}
	return true
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
