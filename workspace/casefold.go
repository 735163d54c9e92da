package workspace

import (
	"fmt"
	"hash/maphash"
	"iter"
	"path"
	"runtime"
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
// Each spelling is reported once, where it first comes. It keeps 8 bytes
// per distinct path or directory (caseTable), not the paths, with no limit
// on their number: the key of a name is a 64-bit hash of its folded form
// (cleaned as the executor resolves it, NFC-normalized, each letter mapped
// to one of its case variants), of which 46 bits are kept, with 24 bits of
// a hash of its exact cleaned form. Nor does it keep the line of each
// name: a report waits for the line of the earlier path, which a second
// pass over the same actions (Resolve) finds, checking the folded hash in
// full, so a report whose 46 bits matched by chance is dropped there. A
// missed report needs the 24-bit hashes of two case variants to collide
// (about 2⁻²⁴ per pair of variants).
type CaseCollisions struct {
	schema  *schema.Schema
	dialect string
	effects Effects // what each action does, for staticPath
	seed    maphash.Seed
	names   caseTable
	more    map[caseSpelling]struct{} // the other spellings met (rare)
	// pending holds, by the folded hash of the name that collided, the
	// reports that wait for the line of the earlier path (Resolve).
	pending map[uint64][]*pendingCase
	diags   []*ast.Diagnostic
	// cap lists the first MaxPerCode warnings of each code and counts the
	// rest, which Diagnostics sums up in one (keep), as the parsers do.
	cap   grammar.Cap
	paths uint32 // paths met by Action
	again uint32 // paths met by Resolve
	buf   []byte
	disk  *caseDisk // nil without a root
	// dirs counts the directories recorded in names; past dirBudget of
	// the plan read so far, a new directory is looked up but not
	// recorded, and full says where that first happened.
	dirs int
	full bool
}

// caseSpelling is a spelling of a name: its folded and exact hashes.
type caseSpelling struct{ fold, exact uint64 }

// pendingCase is a report that waits for the earlier path's line.
type pendingCase struct {
	d          *ast.Diagnostic
	head, tail string // the message around the earlier path's place
	path       uint32 // the reporting path's number (Action's order)
	i          int    // its index in CaseCollisions.diags
}

// NewCaseCollisions returns a CaseCollisions for a plan of dialect read
// with schema s (nil: the dialect's built-in schema, as Options.Schema).
func NewCaseCollisions(dialect string, s *schema.Schema) *CaseCollisions {
	if s == nil {
		s, _ = schema.Builtin(dialect) // nil for a dialect without one
	}
	c := &CaseCollisions{schema: s, dialect: dialect, effects: DefaultEffects(), seed: maphash.MakeSeed()}
	c.names.mem = &offHeap{}
	runtime.AddCleanup(c, func(m *offHeap) { m.free() }, c.names.mem)
	return c
}

// Close frees the memory c holds outside the garbage-collected heap; c
// must not be fed after it (Diagnostics still works). A CaseCollisions
// that is not closed frees it when it is garbage collected.
func (c *CaseCollisions) Close() {
	c.names.free()
	if c.disk != nil {
		c.disk.dirs = nil // the listings
	}
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

// Action checks the paths of one action, and each directory on them,
// against the paths of the actions before it (and, with a root, against
// the names on disk). It keeps nothing of a.
func (c *CaseCollisions) Action(a *ast.Action) {
	for p := range c.casePaths(a) {
		c.staticPath(a, p)
		exact := cleanSlash(p.value)
		k := c.paths
		c.paths++
		reported := c.disk != nil && c.disk.check(c, a, p, exact)
		c.walk(exact, func(fh, eh uint64, end int, last bool) {
			var found, same bool
			if last || c.dirs < dirBudget(a.Span.End.Offset) {
				if found, same = c.names.add(fh, eh); !found && !last {
					c.dirs++
				}
			} else if found, same = c.names.lookup(fh, eh); !found && !c.full {
				c.full = true
				c.keep(&ast.Diagnostic{Severity: ast.Warning, Code: CodeTooManyDirectories, Span: *p.span,
					Message: dirLimitMessage(a.Span.End.Offset, "from this path on, directories not met before are compared with the names kept but not kept themselves, so two of them that differ only in letter case are not reported")})
			}
			if !found || same {
				return
			}
			sp := caseSpelling{fh, eh}
			if _, met := c.more[sp]; met {
				return // a spelling met before: reported once, when it first came
			}
			if c.more == nil {
				c.more = map[caseSpelling]struct{}{}
			}
			c.more[sp] = struct{}{}
			if reported {
				return
			}
			reported = true
			if c.cap.Full(CodeCaseCollision) {
				c.cap.Take(ast.Warning, CodeCaseCollision, *p.span, "") // counted, not kept
				return
			}
			what := quoteValue(p.value)
			if !last {
				what += " (its directory " + quoteValue(exact[:end]) + ")"
			}
			pc := &pendingCase{
				head: fmt.Sprintf("%s's %s %s and ", a.Name, p.param, what),
				tail: " differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same file or directory; write them the same way",
				path: k, i: len(c.diags),
			}
			pc.d = &ast.Diagnostic{Severity: ast.Warning, Code: CodeCaseCollision, Span: *p.span,
				Message: pc.head + "an earlier path" + pc.tail}
			c.keep(pc.d)
			if c.pending == nil {
				c.pending = map[uint64][]*pendingCase{}
			}
			c.pending[fh] = append(c.pending[fh], pc)
		})
	}
}

// walk calls visit with the folded and exact hashes of each directory on
// the cleaned path exact and of the whole path (last), with the end of
// the name in exact: `Src/a.go` and `src/b.go` put two directories in one.
func (c *CaseCollisions) walk(exact string, visit func(fh, eh uint64, end int, last bool)) {
	c.buf = foldPath(c.buf[:0], exact)
	folded := string(c.buf) // a copy: visit may use c.buf
	var fh, eh maphash.Hash
	fh.SetSeed(c.seed)
	eh.SetSeed(c.seed)
	for fi, ei := 0, 0; ; fi, ei = fi+1, ei+1 {
		fn, en := strings.IndexByte(folded[fi:], '/'), strings.IndexByte(exact[ei:], '/')
		last := fn < 0 || en < 0
		if last {
			fn, en = len(folded)-fi, len(exact)-ei
		}
		fh.WriteString(folded[fi : fi+fn])
		eh.WriteString(exact[ei : ei+en])
		fi, ei = fi+fn, ei+en
		visit(fh.Sum64(), eh.Sum64(), ei, last)
		if last {
			return
		}
		fh.WriteByte('/')
		eh.WriteByte('/')
	}
}

// Unresolved reports whether some reports wait for the line of the earlier
// path: then feeding the same actions again, in the same order, to
// Resolve completes them (lint does; without it they name "an earlier
// path").
func (c *CaseCollisions) Unresolved() bool { return len(c.pending) > 0 }

// Resolve is the second pass over the actions Action was fed, in the same
// order: it finds, for each waiting report, the first path that named the
// name it collided with, and puts that path's line in the message. It
// stops working once no report waits.
func (c *CaseCollisions) Resolve(a *ast.Action) {
	if len(c.pending) == 0 {
		return
	}
	for p := range c.casePaths(a) {
		k := c.again
		c.again++
		line := max(p.span.Start.Line, 0)
		c.walk(cleanSlash(p.value), func(fh, _ uint64, _ int, _ bool) {
			pcs, ok := c.pending[fh]
			if !ok {
				return
			}
			delete(c.pending, fh)
			for _, pc := range pcs {
				if pc.path <= k {
					// The first path that names it is the report's own:
					// no earlier path folds alike (the kept bits of two
					// folded hashes matched by chance).
					c.diags[pc.i] = nil
					continue
				}
				pc.d.Message = fmt.Sprintf("%sthe path at line %d%s", pc.head, line, pc.tail)
			}
		})
		if len(c.pending) == 0 {
			return
		}
	}
}

// Diagnostics returns the case-collision warnings found so far, in the
// order of the actions.
func (c *CaseCollisions) Diagnostics() []*ast.Diagnostic {
	out := make([]*ast.Diagnostic, 0, len(c.diags))
	for _, d := range c.diags {
		if d != nil {
			out = append(out, d)
		}
	}
	return append(out, c.cap.Summaries()...)
}

// SetSilenced makes the rule drop the warnings f names (a directive
// comment or --disable silences them) before they count against the cap
// of 100 a code (grammar.Options.Silenced).
func (c *CaseCollisions) SetSilenced(f func(code string, line int) bool) { c.cap.Silenced = f }

// keep adds d to the warnings unless MaxPerCode of its code were added
// already; then it is only counted, and Diagnostics sums the rest up in
// one warning (a case-collision report that Resolve later finds to be a
// chance match of folded hashes is dropped after it was counted, so once
// in a while 99 are listed).
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
