package workspace

import (
	"fmt"
	"hash/maphash"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/plangram/plangram/ast"
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
// (Diagnostics). It does not read the disk, so `check` runs it with and
// without a root.
//
// Each spelling is reported once, where it first comes. It keeps 16 bytes
// per distinct path, not the paths: the key of a path is
// a 64-bit hash of its folded form (cleaned as the executor resolves it,
// NFC-normalized, each letter mapped to one of its case variants), with a
// 32-bit hash of its exact cleaned form and the line that first named it.
// Two paths whose folded forms hash alike and whose exact forms do not are
// reported. A false report needs two 64-bit hashes to collide (a chance of
// about n²/2⁶⁵ for n paths); a missed one needs the 32-bit hashes of two
// case variants to collide (about 2⁻³² per pair).
type CaseCollisions struct {
	schema *schema.Schema
	seed   maphash.Seed
	seen   map[uint64]uint64   // fold hash → exact hash << 32 | line
	more   map[uint64][]uint32 // fold hash → the other exact hashes met (rare)
	full   bool                // a name was not recorded: MaxCaseNames were
	fullAt ast.Span            // where the first such name was
	diags  []*ast.Diagnostic
	buf    []byte
}

// NewCaseCollisions returns a CaseCollisions for a plan of dialect read
// with schema s (nil: the dialect's built-in schema, as Options.Schema).
func NewCaseCollisions(dialect string, s *schema.Schema) *CaseCollisions {
	if s == nil {
		s, _ = schema.Builtin(dialect) // nil for a dialect without one
	}
	return &CaseCollisions{schema: s, seed: maphash.MakeSeed(), seen: map[uint64]uint64{}}
}

// Action checks the paths of one action, and each directory on them,
// against the paths of the actions before it. It keeps nothing of a.
func (c *CaseCollisions) Action(a *ast.Action) {
	for _, p := range pathArgsOf(c.schema, a) {
		if p.resource && schema.IsURL(p.value) {
			continue
		}
		if schema.CheckPath(p.value) != nil {
			continue // the path rule reports it
		}
		exact := cleanSlash(p.value)
		c.buf = foldPath(c.buf[:0], exact)
		line := uint32(min(max(p.span.Start.Line, 0), 1<<32-1))
		// Each prefix that ends at a separator (a directory) and the whole
		// path: `Src/a.go` and `src/b.go` put two directories in one.
		var fh, eh maphash.Hash
		fh.SetSeed(c.seed)
		eh.SetSeed(c.seed)
		folded := string(c.buf)
		reported := false
		for fi, ei := 0, 0; ; fi, ei = fi+1, ei+1 {
			fn, en := strings.IndexByte(folded[fi:], '/'), strings.IndexByte(exact[ei:], '/')
			last := fn < 0 || en < 0
			if last {
				fn, en = len(folded)-fi, len(exact)-ei
			}
			fh.WriteString(folded[fi : fi+fn])
			eh.WriteString(exact[ei : ei+en])
			fi, ei = fi+fn, ei+en
			full := c.full
			prev := c.add(fh.Sum64(), uint32(eh.Sum64()), line)
			if c.full && !full {
				c.fullAt = p.span
			}
			if prev != 0 && !reported {
				reported = true
				what := quoteValue(p.value)
				if !last {
					what += " (its directory " + quoteValue(exact[:ei]) + ")"
				}
				c.diags = append(c.diags, &ast.Diagnostic{
					Severity: ast.Warning, Code: CodeCaseCollision, Span: p.span,
					Message: fmt.Sprintf("%s's %s %s and the path at line %d differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same file or directory; write them the same way",
						a.Name, p.param, what, prev),
				})
			}
			if last {
				break
			}
			fh.WriteByte('/')
			eh.WriteByte('/')
		}
	}
}

// add records one path (or directory) by the hashes of its folded and
// exact forms, and returns the line of an earlier one that folds alike
// and is spelt otherwise, when this spelling is new; else 0.
func (c *CaseCollisions) add(key uint64, exact, line uint32) uint32 {
	prev, ok := c.seen[key]
	if !ok {
		if len(c.seen) < MaxCaseNames {
			c.seen[key] = uint64(exact)<<32 | uint64(line)
		} else {
			c.full = true
		}
		return 0
	}
	if uint32(prev>>32) == exact || slices.Contains(c.more[key], exact) {
		return 0 // a spelling met before: reported once, when it first came
	}
	if c.more == nil {
		c.more = map[uint64][]uint32{}
	}
	c.more[key] = append(c.more[key], exact)
	return max(uint32(prev), 1)
}

// MaxCaseNames bounds the distinct paths and directories CaseCollisions
// records per document (about half a MiB): later ones are still compared with
// the recorded ones but not with each other, and an info diagnostic says
// so, so that a plan of a million files does not cost its memory bound.
const MaxCaseNames = 1 << 14

// Diagnostics returns the case-collision warnings found so far, in the
// order of the actions, and, when more than MaxCaseNames names were met,
// an info diagnostic at the first name that was not recorded.
func (c *CaseCollisions) Diagnostics() []*ast.Diagnostic {
	if !c.full {
		return c.diags
	}
	return append(c.diags[:len(c.diags):len(c.diags)], &ast.Diagnostic{
		Severity: ast.Info, Code: CodeCaseCollision, Span: c.fullAt,
		Message: fmt.Sprintf("the plan names more than %d distinct paths and directories: from here on, each is compared for case only with the first %d, not with each other", MaxCaseNames, MaxCaseNames),
	})
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
