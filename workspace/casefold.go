package workspace

import (
	"fmt"
	"iter"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
)

// CodeCaseCollision: two paths of one plan differ only in letter case or
// in Unicode normalization (`Foo.go` and `foo.go`, `é` composed and
// decomposed). On a case-sensitive file system (Linux) they are two files;
// on a case-insensitive one (macOS, Windows) they are one, so the plan does
// something else there (docs/check.md, "case-collision").
const CodeCaseCollision = "case-collision"

// CaseCollisions finds the paths of a plan that differ only in case: feed
// it every action in document order (Action) and collect its warnings
// (Diagnostics). Without a root (SetRoot) it does not read the disk, so
// `check` runs it with and without one; with a root it also compares each
// path with the names already on disk (casedisk.go).
//
// Each spelling is reported once, where it first comes, naming the line
// of the first path that spelt the name otherwise. The names are kept as
// two tries of path components, one of the folded names (cleaned as the
// executor resolves them, NFC-normalized, each letter mapped to one of its
// case variants) and one of the exact names, so that a path costs its
// length, however deep it is.
type CaseCollisions struct {
	schema  *schema.Schema
	dialect string
	effects Effects // what each action does, for staticPath
	// folded and exact number each distinct directory or path met, by its
	// parent's number and its last component.
	folded, exact map[caseKey]int
	// first holds, by folded number, the exact number and line of the
	// first path that named it.
	first []caseFirst
	more  map[int]bool // the exact numbers of the other spellings met
	diags []*ast.Diagnostic
	// cap lists the first MaxPerCode warnings of each code and counts the
	// rest, which Diagnostics sums up in one (keep), as the parsers do.
	cap  grammar.Cap
	buf  []byte
	disk *caseDisk // nil without a root
}

// caseKey is a component of a path below the directory numbered parent.
type caseKey struct {
	parent int
	name   string
}

type caseFirst struct{ exact, line int }

// NewCaseCollisions returns a CaseCollisions for a plan of dialect read
// with schema s (nil: the dialect's built-in schema, as Options.Schema).
func NewCaseCollisions(dialect string, s *schema.Schema) *CaseCollisions {
	if s == nil {
		s, _ = schema.Builtin(dialect) // nil for a dialect without one
	}
	return &CaseCollisions{schema: s, dialect: dialect, effects: DefaultEffects(),
		folded: map[caseKey]int{}, exact: map[caseKey]int{}, more: map[int]bool{}}
}

// casePaths yields the path parameters of an action that the rule
// compares, one by one (a list of many paths is not copied).
func (c *CaseCollisions) casePaths(a *ast.Action) iter.Seq[pathArg] {
	return func(yield func(pathArg) bool) {
		for p := range eachPathArg(c.schema, a) {
			if p.resource && schema.IsURL(p.value) {
				continue
			}
			if schema.CheckPath(p.value) != nil {
				continue // the path rule reports it
			}
			if !yield(p) {
				return
			}
		}
	}
}

// caseNumber returns the number of component name below parent in trie m,
// made when new.
func caseNumber(m map[caseKey]int, parent int, name string) int {
	k := caseKey{parent, name}
	n, ok := m[k]
	if !ok {
		n = len(m) + 1
		m[k] = n
	}
	return n
}

// Action checks the paths of one action, and each directory on them,
// against the paths of the actions before it (and, with a root, against
// the names on disk). It keeps nothing of a.
func (c *CaseCollisions) Action(a *ast.Action) {
	for p := range c.casePaths(a) {
		c.staticPath(a, p)
		exact := cleanSlash(p.value)
		reported := c.disk != nil && c.disk.check(c, a, p, exact)
		folded := string(foldPath(nil, exact))
		fn, en := 0, 0
		for fi, ei := 0, 0; ; {
			fj, ej := strings.IndexByte(folded[fi:], '/'), strings.IndexByte(exact[ei:], '/')
			last := fj < 0 || ej < 0
			if last {
				fj, ej = len(folded)-fi, len(exact)-ei
			}
			fn, en = caseNumber(c.folded, fn, folded[fi:fi+fj]), caseNumber(c.exact, en, exact[ei:ei+ej])
			fi, ei = fi+fj+1, ei+ej+1
			if fn > len(c.first) {
				c.first = append(c.first, caseFirst{en, max(p.span.Start.Line, 0)})
			}
			if first := c.first[fn-1]; first.exact != en && !c.more[en] {
				c.more[en] = true
				if !reported {
					reported = true
					c.report(a, p, exact, ei-1, last, first.line)
				}
			}
			if last {
				break
			}
		}
	}
}

// report warns that path p of a (its directory exact[:end] unless last)
// is spelt otherwise at line.
func (c *CaseCollisions) report(a *ast.Action, p pathArg, exact string, end int, last bool, line int) {
	if c.cap.Full(CodeCaseCollision) {
		c.cap.Take(ast.Warning, CodeCaseCollision, *p.span, "") // counted, not kept
		return
	}
	what := quoteValue(p.value)
	if !last {
		what += " (its directory " + quoteValue(exact[:end]) + ")"
	}
	c.keep(&ast.Diagnostic{Severity: ast.Warning, Code: CodeCaseCollision, Span: *p.span,
		Message: fmt.Sprintf("%s's %s %s and the path at line %d differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same file or directory; write them the same way", a.Name, p.param, what, line)})
}

// Diagnostics returns the case-collision warnings found so far, in the
// order of the actions.
func (c *CaseCollisions) Diagnostics() []*ast.Diagnostic {
	return append(slices.Clip(c.diags), c.cap.Summaries()...)
}

// SetSilenced makes the rule drop the warnings f names (a directive
// comment or --disable silences them) before they count against the cap
// of 100 a code (grammar.Options.Silenced).
func (c *CaseCollisions) SetSilenced(f func(code string, line int) bool) { c.cap.Silenced = f }

// keep adds d to the warnings unless MaxPerCode of its code were added
// already; then it is only counted, and Diagnostics sums the rest up in
// one warning.
func (c *CaseCollisions) keep(d *ast.Diagnostic) {
	if c.cap.Take(d.Severity, d.Code, d.Span, "") {
		c.diags = append(c.diags, d)
	}
}

// cleanSlash cleans a relative path lexically as the executor resolves it:
// `\` is a separator, `.` and empty components go, `..` removes the
// component before it.
func cleanSlash(v string) string {
	return path.Clean(strings.ReplaceAll(v, `\`, "/"))
}

// foldPath appends the folded form of p to dst: NFC, then each rune
// replaced by the smallest rune of its simple case-folding orbit (the
// equivalence strings.EqualFold uses), so `Foo.go`, `FOO.GO` and `foo.go`
// fold alike, and so do a composed `é` and `e` + U+0301.
func foldPath(dst []byte, p string) []byte {
	if !norm.NFC.IsNormalString(p) {
		p = norm.NFC.String(p)
	}
	for _, r := range p {
		if r < utf8.RuneSelf {
			// An ASCII letter's orbit holds its two cases (and, for k and
			// s, U+212A and U+017F); the smallest is the upper case.
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			dst = append(dst, byte(r))
			continue
		}
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		dst = utf8.AppendRune(dst, least)
	}
	return dst
}

// quoteValue quotes a path for a message.
func quoteValue(v string) string { return fmt.Sprintf("%q", v) }
