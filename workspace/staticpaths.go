package workspace

import (
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
)

// CodeNonPortablePath: a path that Windows cannot hold — a component that
// is a device name (`CON`, `nul.txt`, `COM1`), that ends with a dot or a
// space, or that holds one of `<>:"|?*` (docs/check.md,
// "non-portable-path"). It is a warning: the plan works on Linux and
// macOS, but a checkout or an executor on Windows fails or writes another
// name.
const CodeNonPortablePath = "non-portable-path"

// staticPath applies the rules of one path p of action a that need no
// workspace and are not the path rule (schema.CheckPath, which the parser
// applies): non-portable-path, and, without a root, not-a-file for the
// path of a file action spelled as a directory (`write_file src/`). With
// a root the workspace rules report not-a-file (checker.dirSyntax), and
// the edit formats' parsers report it for every path of theirs, so it is
// said once.
func (c *CaseCollisions) staticPath(a *ast.Action, p pathArg) {
	if msg := nonPortable(p.value); msg != "" {
		c.keep(&ast.Diagnostic{Severity: ast.Warning, Code: CodeNonPortablePath, Span: *p.span,
			Message: fmt.Sprintf("%s's %s %s %s: Windows cannot hold such a name, so a checkout or an executor there fails or writes another file", a.Name, p.param, quoteValue(p.value), msg)})
	}
	if c.disk != nil || p.param == "cwd" || !schema.NamesDirectory(p.value) || c.editFormat() {
		return
	}
	op := c.effects[a.Name]
	if op == OpRun || op == OpNone {
		return
	}
	sev := ast.Error
	if op == OpRead {
		sev = ast.Warning
	}
	c.keep(&ast.Diagnostic{Severity: sev, Code: CodeNotAFile, Span: *p.span,
		Message: fmt.Sprintf("%s %s %q ends with %s, so it names a directory, not a file", a.Name, p.param, p.value, schema.DirectoryEnding(p.value))})
}

// editFormat reports whether the plan is in one of the edit formats, whose
// parsers report a path spelled as a directory themselves.
func (c *CaseCollisions) editFormat() bool {
	d := c.dialect
	if c.schema != nil {
		d = c.schema.SyntaxName()
	}
	switch d {
	case grammar.DialectUdiff, grammar.DialectApplyPatch, grammar.DialectSearchReplace:
		return true
	}
	return false
}

// nonPortable says why Windows cannot hold the path p (`\` and `/` are
// separators), or "".
func nonPortable(p string) string {
	for c := range strings.FieldsFuncSeq(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if c == "." || c == ".." {
			continue
		}
		if i := strings.IndexAny(c, `<>:"|?*`); i >= 0 {
			return fmt.Sprintf("holds %q, which Windows does not allow in a name", c[i])
		}
		if last := c[len(c)-1]; last == '.' || last == ' ' {
			what := "dot"
			if last == ' ' {
				what = "space"
			}
			return fmt.Sprintf("has a component, %q, that ends with a %s, which Windows drops", c, what)
		}
		base := c
		if i := strings.IndexByte(base, '.'); i >= 0 {
			base = base[:i]
		}
		base = strings.TrimRight(base, " ")
		if reservedName(base) {
			return fmt.Sprintf("has a component, %q, that is the device name %s on Windows", c, strings.ToUpper(base))
		}
	}
	return ""
}

// reservedName reports whether name (without extension) is a Windows
// device name: CON, PRN, AUX, NUL, COM0–COM9 and LPT0–LPT9 (also with the
// superscript digits ¹ ² ³), in any case.
func reservedName(name string) bool {
	for _, r := range [...]string{"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"} {
		if strings.EqualFold(name, r) { // no allocation: every path's components come here
			return true
		}
	}
	if len(name) < 4 {
		return false
	}
	pre, d := name[:3], name[3:]
	if !strings.EqualFold(pre, "COM") && !strings.EqualFold(pre, "LPT") {
		return false
	}
	return len(d) == 1 && d[0] >= '0' && d[0] <= '9' || d == "¹" || d == "²" || d == "³"
}
