package lint

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/plangram/plangram/ast"
)

// Directive comments silence rules from inside a plan (docs/check.md,
// "Silencing rules"). Each is an HTML comment alone on a line outside any
// fenced block:
//
//	<!-- plangram-disable CODE[,CODE…] -->           from this line on (to an enable)
//	<!-- plangram-enable CODE[,CODE…] -->            ends a disable
//	<!-- plangram-disable-next-line CODE[,CODE…] --> the next line, or the whole
//	                                                  fenced block opening on it
//
// A diagnostic is silenced when its code is named and its first line is in
// the range. A directive without codes is itself a warning (bad-directive):
// silencing everything by accident would let a broken plan pass.
var directiveRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t]*<!--[ \t]*plangram-(disable-next-line|disable|enable)\b(.*?)-->[ \t]*\r?$`)
})

// CodeBadDirective is the code of a directive comment that names no rule.
const CodeBadDirective = "bad-directive"

type lineRange struct{ from, to int } // 1-based lines, to inclusive

// Suppress returns diags (in order) without those silenced by disable
// (codes turned off for the whole input, `check --disable`) or by the
// directive comments in src; doc (may be nil) gives the fenced blocks whose
// lines are content, not directives. Malformed directives add a
// bad-directive warning. Time is linear in src and diags.
func Suppress(doc *ast.Document, src []byte, diags []*ast.Diagnostic, disable []string) []*ast.Diagnostic {
	return newSuppressor(doc, src, disable).apply(diags)
}

// suppressor knows what the directives of one document and the disabled
// codes silence.
type suppressor struct {
	off    map[string]bool
	ranges map[string][]lineRange
	bad    []*ast.Diagnostic
}

// newSuppressor reads the directives of src outside the fenced blocks of
// doc (may be nil).
func newSuppressor(doc *ast.Document, src []byte, disable []string) *suppressor {
	s := &suppressor{off: map[string]bool{}}
	for _, c := range disable {
		if c = strings.TrimSpace(c); c != "" {
			s.off[c] = true
		}
	}
	s.ranges, s.bad = directives(doc, src)
	return s
}

// silenced reports whether a diagnostic of code on line is silenced: the
// predicate the parsers and the workspace rules drop diagnostics by
// before they count them against their cap (grammar.Options.Silenced).
func (s *suppressor) silenced(code string, line int) bool {
	return s.off[code] || silenced(s.ranges[code], line)
}

// predicate returns silenced, or nil when nothing is silenced.
func (s *suppressor) predicate() func(string, int) bool {
	if len(s.off) == 0 && len(s.ranges) == 0 {
		return nil
	}
	return s.silenced
}

// apply returns diags without the silenced ones, with the bad-directive
// warnings.
func (s *suppressor) apply(diags []*ast.Diagnostic) []*ast.Diagnostic {
	if len(s.off) == 0 && len(s.ranges) == 0 && len(s.bad) == 0 { // nothing silenced or reported
		return diags
	}
	out := slices.DeleteFunc(slices.Clone(diags), func(d *ast.Diagnostic) bool { return s.silenced(d.Code, d.Span.Start.Line) })
	if len(s.bad) > 0 && !s.off[CodeBadDirective] {
		out = append(out, s.bad...)
		ast.SortDiagnostics(out)
	}
	return out
}

// silenced reports whether line is in one of rs, which merge sorted and
// disjoint (binary search: linear-logarithmic time however many directives
// and diagnostics a plan has).
func silenced(rs []lineRange, line int) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].from > line }) - 1
	return i >= 0 && (rs[i].to == 0 || line <= rs[i].to)
}

// merge sorts ranges by start and joins overlapping ones (to == 0: open).
func merge(rs []lineRange) []lineRange {
	sort.Slice(rs, func(i, j int) bool { return rs[i].from < rs[j].from })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && (out[n-1].to == 0 || r.from <= out[n-1].to+1) {
			if out[n-1].to != 0 && (r.to == 0 || r.to > out[n-1].to) {
				out[n-1].to = r.to
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// directives finds the directive comments of src outside fenced blocks and
// returns the silenced line ranges per code (to == 0: to the end).
func directives(doc *ast.Document, src []byte) (map[string][]lineRange, []*ast.Diagnostic) {
	if !hasDirective(src) {
		return nil, nil
	}
	blocks := BlockSpans(doc)
	blockEnd := map[int]int{} // first line → last line of each block
	for _, b := range blocks {
		last := b.End.Line
		if b.End.Col == 1 && last > b.Start.Line {
			last-- // the span ends after the closing line's line ending
		}
		blockEnd[b.Start.Line] = max(blockEnd[b.Start.Line], last)
	}
	ranges := map[string][]lineRange{}
	var bad []*ast.Diagnostic
	line, bi, start := 0, 0, 0
	for l := range bytes.Lines(src) {
		end := start + len(bytes.TrimSuffix(l, []byte("\n")))
		line++
		for bi < len(blocks) && blocks[bi].End.Offset <= start {
			bi++
		}
		inBlock := bi < len(blocks) && blocks[bi].Start.Offset <= start
		if !inBlock && bytes.Contains(src[start:end], []byte("plangram-")) {
			if m := directiveRE().FindSubmatch(src[start:end]); m != nil {
				kind := string(m[1])
				codes := strings.FieldsFunc(string(m[2]), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
				if len(codes) == 0 {
					sp := ast.Span{Start: ast.Pos{Offset: start, Line: line, Col: 1}, End: ast.Pos{Offset: end, Line: line, Col: end - start + 1}}
					bad = append(bad, &ast.Diagnostic{Severity: ast.Warning, Code: CodeBadDirective, Span: sp,
						Message: "plangram-" + kind + " names no rule: write the codes to silence, e.g. <!-- plangram-" + kind + " unknown-action -->"})
				}
				for _, c := range codes {
					rs := ranges[c]
					switch kind {
					case "disable-next-line":
						ranges[c] = append(rs, lineRange{line + 1, max(line+1, blockEnd[line+1])})
					case "disable":
						ranges[c] = append(rs, lineRange{line, 0})
					case "enable":
						for i := len(rs) - 1; i >= 0; i-- {
							if rs[i].to == 0 {
								rs[i].to = line
								break
							}
						}
					}
				}
			}
		}
		start += len(l)
	}
	for c, rs := range ranges {
		ranges[c] = merge(rs)
	}
	return ranges, bad
}

// hasDirective reports whether src may hold a directive comment (only
// then are the fenced blocks' spans needed and its lines read): whether
// some `<!--` is followed, after spaces and tabs, by `plangram-`, as
// directiveRE requires. It looks for the comment's opening first, whose
// `<` is rare in most plans, so that a plan without one is passed over at
// the speed of bytes.IndexByte (the `p` of `plangram-` is common, so
// looking for it first would stop at many bytes).
func hasDirective(src []byte) bool {
	for {
		i := bytes.Index(src, []byte("<!--"))
		if i < 0 {
			return false
		}
		src = bytes.TrimLeft(src[i+len("<!--"):], " \t")
		if bytes.HasPrefix(src, []byte("plangram-")) {
			return true
		}
	}
}

// BlockSpans returns the spans of the document's fenced blocks (its
// actions' head and argument blocks included), sorted by start.
func BlockSpans(doc *ast.Document) []ast.Span {
	if doc == nil {
		return nil
	}
	var out []ast.Span
	add := func(bs ...*ast.Block) {
		for _, b := range bs {
			if b != nil {
				out = append(out, b.Span)
			}
		}
	}
	add(doc.Blocks...)
	for _, a := range doc.Actions {
		add(a.Head)
		add(a.Blocks...)
	}
	slices.SortStableFunc(out, func(a, b ast.Span) int { return a.Start.Offset - b.Start.Offset })
	return out
}
