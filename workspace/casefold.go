package workspace

import (
	"fmt"
	"hash/maphash"
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
// of the first path that spelt the name otherwise. The names are kept as a
// trie of folded path components (cleaned as the executor resolves them,
// NFC-normalized, each letter mapped to one of its case variants), each
// with the spellings met, so that a path costs its length however deep it
// is. A component is kept as 64-bit hashes (maphash) of its folded and
// exact forms, not as a string: the trie holds no pointer for the garbage
// collector to scan, and two different names hash alike with a
// probability of 2⁻⁶⁴ per pair.
type CaseCollisions struct {
	schema  *schema.Schema
	dialect string
	effects Effects // what each action does, for staticPath
	// folded holds each distinct folded directory or path met, by its
	// directory's number and its last folded component; more holds the
	// other spellings met (rare), by number.
	folded map[caseKey]caseNode
	more   map[int32][]caseSpelling
	diags  []*ast.Diagnostic
	seed   maphash.Seed
	// cap lists the first MaxPerCode warnings of each code and counts the
	// rest, which Diagnostics sums up in one (keep), as the parsers do.
	cap  grammar.Cap
	buf  []byte
	disk *caseDisk // nil without a root
}

// caseKey is a folded component of a path below the directory numbered
// dir (0: the root).
type caseKey struct {
	dir  int32
	fold uint64
}

// caseNode is a folded name: its number (from 1) and its first spelling.
type caseNode struct {
	n     int32
	first caseSpelling
}

// caseSpelling is a spelling of a folded name: its directory's spelling
// (an index among the directory's spellings, 0 the first), the hash of
// its last component as written, and the line of the path that spelt it
// first.
type caseSpelling struct {
	dir, line int32
	exact     uint64
}

// NewCaseCollisions returns a CaseCollisions for a plan of dialect read
// with schema s (nil: the dialect's built-in schema, as Options.Schema).
func NewCaseCollisions(dialect string, s *schema.Schema) *CaseCollisions {
	if s == nil {
		s, _ = schema.Builtin(dialect) // nil for a dialect without one
	}
	return &CaseCollisions{schema: s, dialect: dialect, effects: DefaultEffects(), folded: map[caseKey]caseNode{}, more: map[int32][]caseSpelling{}, seed: maphash.MakeSeed()}
}

// casePaths yields the path parameters of an action that the rule
// compares, one by one (a list of many paths is not copied).
func (c *CaseCollisions) casePaths(a *ast.Action) iter.Seq[pathArg] {
	return func(yield func(pathArg) bool) {
		for p := range eachPathArg(c.schema, a) {
			// A resource may be a URL; the path rule reports a bad path.
			if p.resource && schema.IsURL(p.value) || schema.CheckPath(p.value) != nil {
				continue
			}
			if !yield(p) {
				return
			}
		}
	}
}

// Action checks the paths of one action, and each directory on them,
// against the paths of the actions before it (and, with a root, against
// the names on disk). It keeps nothing of a.
func (c *CaseCollisions) Action(a *ast.Action) {
	for p := range c.casePaths(a) {
		c.staticPath(a, p)
		// Cleaned as the executor resolves it: `\` is a separator, `.`
		// and empty components go, `..` removes the component before it.
		exact := path.Clean(strings.ReplaceAll(p.value, `\`, "/"))
		reported := c.disk != nil && c.disk.check(c, a, p, exact)
		line := int32(max(p.span.Start.Line, 0))
		dir, sp := int32(0), int32(0) // the root, spelt one way
		for end, name := range components(exact) {
			c.buf = foldPath(c.buf[:0], name)
			k, s := caseKey{dir, maphash.Bytes(c.seed, c.buf)}, caseSpelling{dir: sp, line: line, exact: maphash.String(c.seed, name)}
			node, ok := c.folded[k]
			if !ok {
				node = caseNode{n: int32(len(c.folded) + 1), first: s}
				c.folded[k] = node
			}
			dir, sp = node.n, c.spelling(node, s)
			if sp < 0 {
				// A spelling not met before: reported where it comes.
				if sp = -sp; !reported {
					reported = true
					c.report(a, p, exact, end, node.first.line)
				}
			}
		}
	}
}

// DocCaseCollisions gives the case-collision warnings of doc read with
// schema s, comparing its paths with the names under root too unless root
// is empty, and dropping those silenced names (nil: none).
func DocCaseCollisions(doc *ast.Document, s *schema.Schema, root string, silenced func(code string, line int) bool) []*ast.Diagnostic {
	c := NewCaseCollisions(doc.Dialect, s)
	c.SetSilenced(silenced)
	if root != "" {
		c.SetRoot(root)
	}
	for _, a := range doc.Actions {
		c.Action(a)
	}
	return c.Diagnostics()
}

// spelling returns the index of spelling s among those of folded name
// node (0 the first), or, when s was not met before, adds it and returns
// its index negated.
func (c *CaseCollisions) spelling(node caseNode, s caseSpelling) int32 {
	if f := node.first; f.dir == s.dir && f.exact == s.exact {
		return 0
	}
	n := node.n
	for k, m := range c.more[n] {
		if m.dir == s.dir && m.exact == s.exact {
			return int32(k + 1)
		}
	}
	c.more[n] = append(c.more[n], s)
	return -int32(len(c.more[n]))
}

// report warns that path p of a (its directory exact[:end] when that is
// shorter) is spelt otherwise at line.
func (c *CaseCollisions) report(a *ast.Action, p pathArg, exact string, end int, line int32) {
	what := quoteValue(p.value)
	if end < len(exact) {
		what += " (its directory " + quoteValue(exact[:end]) + ")"
	}
	c.keep(&ast.Diagnostic{Severity: ast.Warning, Code: CodeCaseCollision, Span: *p.span,
		Message: fmt.Sprintf("%s's %s %s and the path at line %d differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same file or directory; write them the same way", a.Name, p.param, what, line)})
}

// Diagnostics returns the case-collision warnings found so far, in the
// order of the actions, and closes the handle on the root that reading
// the disk opened (an Action after it opens it again).
func (c *CaseCollisions) Diagnostics() []*ast.Diagnostic {
	if c.disk != nil && c.disk.fsys != nil {
		c.disk.fsys.Close()
		c.disk.fsys = nil
	}
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

// components yields each component of the slash path p with the offset
// of its end.
func components(p string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		end := -1
		for name := range strings.SplitSeq(p, "/") {
			if end += len(name) + 1; !yield(end, name) {
				return
			}
		}
	}
}

// foldPath appends the folded form of p to dst: NFC, then each rune
// replaced by the smallest rune of its simple case-folding orbit (the
// equivalence strings.EqualFold uses), an ASCII upper-case letter then by
// its lower case, so `Foo.go`, `FOO.GO` and `foo.go` fold alike (to the
// name itself when it is lower-case ASCII), and so do a composed `é` and
// `e` + U+0301.
func foldPath(dst []byte, p string) []byte {
	i := 0
	for i < len(p) && p[i] < utf8.RuneSelf {
		i++
	}
	if i < len(p) && !norm.NFC.IsNormalString(p) { // ASCII is in NFC
		p = norm.NFC.String(p)
	}
	for _, r := range p {
		if r >= utf8.RuneSelf {
			least := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				least = min(least, f)
			}
			r = least
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// quoteValue quotes a path for a message.
func quoteValue(v string) string { return fmt.Sprintf("%q", v) }
